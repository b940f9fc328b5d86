import { createClearingView, type ReplayPolicyFactory } from './replay-policy.ts';

/** `clear_tool_uses_20250919` defaults: the input size that triggers clearing, and the tool uses kept. */
export const contextEditingDefaults = { triggerInputTokens: 100_000, keepToolUses: 3 } as const;

/**
 * Anthropic's server-side context editing with `clear_tool_uses_20250919` at its defaults: when a
 * request's input exceeds 100,000 tokens (or the trigger), every tool result but the 3 most recent is
 * replaced by a placeholder; the tool calls stay. The client keeps sending its whole history, so the
 * clearing is decided again on every request.
 */
export const anthropicContextEditingPolicy: ReplayPolicyFactory = (context) => {
  const trigger = context.triggerTokens ?? contextEditingDefaults.triggerInputTokens;
  // Anthropic does not document the placeholder's exact text; LangChain's emulation writes "[cleared]".
  const view = createClearingView('anthropic-context-editing', () => '[cleared]');
  return {
    async step(history) {
      if (context.tokens(history) <= trigger) return { request: history, compacted: false };
      const toolIndices = history.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
      const cleared = new Set(toolIndices.slice(0, Math.max(0, toolIndices.length - contextEditingDefaults.keepToolUses)));
      const { request, changed } = view(history, (index) => cleared.has(index));
      return { request, compacted: changed > 0 };
    },
  };
};
