import { type Message, textOf } from '@ctxkit/core';
import { createClearingView, type ReplayPolicyFactory, summaryMessage, systemPrefix } from './replay-policy.ts';

/** Gemini CLI's chat compression and tool-output masking constants (see docs/policies.md for the source). */
export const geminiCliDefaults = {
  /** COMPRESSION_TOKEN_THRESHOLD: compress when the history passes this share of the model's limit. */
  compressionThreshold: 0.5,
  /** COMPRESSION_PRESERVE_THRESHOLD: the newest share of the history (by characters) kept verbatim. */
  preserveShare: 0.3,
  /** Tool output tokens, newest first, that masking never touches. */
  maskingProtectTokens: 50_000,
  /** Masking runs only when at least this many tool tokens can be masked. */
  maskingMinimumTokens: 30_000,
  prompt:
    "You are the component that summarizes internal chat history into a given structure. When the conversation history grows too large, you will be invoked to distill the entire history into a concise, structured XML snapshot (<state_snapshot>: overall_goal, key_knowledge, file_system_state, recent_actions, current_plan). This snapshot is CRITICAL, as it will become the agent's *only* memory of the past.",
  acknowledgement: 'Got it. Thanks for the additional context!',
} as const;

/**
 * Where Gemini CLI splits a history for compression: the first user message that is not a tool response
 * at or after `fraction` of the characters; else everything when the history ends with a model message
 * without tool calls; else the last such user message seen.
 */
export function geminiSplitPoint(contents: readonly Message[], fraction: number): number {
  const sizes = contents.map((message) => JSON.stringify(message).length);
  const target = sizes.reduce((sum, size) => sum + size, 0) * fraction;
  let lastSplit = 0;
  let seen = 0;
  for (let index = 0; index < contents.length; index += 1) {
    if (contents[index]!.role === 'user') {
      if (seen >= target) return index;
      lastSplit = index;
    }
    seen += sizes[index]!;
  }
  const last = contents.at(-1);
  if (last?.role === 'assistant' && !last.toolCalls?.length) return contents.length;
  return lastSplit;
}

/**
 * Gemini CLI: tool-output masking (the newest 50,000 tool tokens protected; older outputs masked only
 * when at least 30,000 tokens can be), then chat compression when the history passes 50% of the window
 * (or the trigger): the oldest 70% by characters, cut at a user message that is not a tool response, is
 * replaced by a state snapshot the model writes, followed by the model's acknowledgement. A compression
 * that would grow the history is rejected and not tried again. In a run with a single user message (an
 * autonomous tool loop) there is no split point, so compression compresses nothing.
 */
export const geminiCliPolicy: ReplayPolicyFactory = (context) => {
  const trigger = context.triggerTokens ?? Math.floor(context.window * geminiCliDefaults.compressionThreshold);
  const view = createClearingView('gemini-cli', (message) => {
    const text = textOf(message.content);
    const preview = text.length > 500 ? `${text.slice(0, 250)}\n... [TRUNCATED] ...\n${text.slice(-250)}` : text;
    return `<tool_output_masked>\n${preview}\n\nOutput too large. Full output available at: tool-outputs/${message.toolCallId}.txt\n</tool_output_masked>`;
  });
  const masked = new Set<Message>();
  const outputTokens = new WeakMap<Message, number>();
  const tokensOf = (message: Message) => {
    let tokens = outputTokens.get(message);
    if (tokens === undefined) {
      tokens = context.countText(textOf(message.content));
      outputTokens.set(message, tokens);
    }
    return tokens;
  };
  let failedCompression = false;
  return {
    async step(history) {
      // Tool-output masking: newest first, protect 50K tool tokens, mask the rest if it is worth 30K.
      let protectedTokens = 0;
      let maskable = 0;
      const candidates: number[] = [];
      // The latest message is never masked (protectLatestTurn).
      for (let index = history.length - 2; index >= 0; index -= 1) {
        const message = history[index]!;
        if (message.role !== 'tool' || masked.has(message) || message.meta?.ctxkit?.kind === 'stub') continue;
        const tokens = tokensOf(message);
        if (protectedTokens < geminiCliDefaults.maskingProtectTokens) protectedTokens += tokens;
        else {
          maskable += tokens;
          candidates.push(index);
        }
      }
      let current: readonly Message[] = history;
      let compacted = false;
      if (maskable >= geminiCliDefaults.maskingMinimumTokens) {
        for (const index of candidates) masked.add(history[index]!);
        const { request } = view(history, (index) => masked.has(history[index]!));
        current = request;
        compacted = true;
      } else if (masked.size > 0) {
        current = view(history, (index) => masked.has(history[index]!)).request;
      }
      if (failedCompression || context.tokens(current) <= trigger) return { request: current, history: [...current], compacted };
      const system = systemPrefix(current);
      const body = current.slice(system.length);
      const split = geminiSplitPoint(body, 1 - geminiCliDefaults.preserveShare);
      if (split === 0) return { request: current, history: [...current], compacted };
      const summary = await context.summarize(body.slice(0, split), geminiCliDefaults.prompt);
      const request: Message[] = [...system, summaryMessage(summary, 'gemini-cli', split), { role: 'assistant', content: geminiCliDefaults.acknowledgement }, ...body.slice(split)];
      if (context.tokens(request) > context.tokens(current)) {
        failedCompression = true;
        return { request: current, history: [...current], compacted };
      }
      return { request, history: request, compacted: true };
    },
  };
};
