import { type Message, textOf } from '@ctxkit/core';
import { type ReplayPolicyFactory, summaryMessage, systemPrefix } from './replay-policy.ts';

/** Codex CLI's local compaction constants (see docs/policies.md for the source). */
export const codexDefaults = {
  /** auto_compact_token_limit as a share of the window. */
  triggerShare: 0.9,
  /** COMPACT_USER_MESSAGE_MAX_TOKENS: recent user messages kept verbatim after a compaction. */
  userMessageMaxTokens: 20_000,
  summaryPrefix:
    'Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:',
  prompt:
    'You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume the task.\n\nInclude:\n- Goal / user objective\n- Current progress and key decisions made\n- Important context, constraints, or user preferences\n- What remains to be done (clear next steps)\n- Any critical data, examples, or references needed to continue\n\nBe concise, structured, and focused on helping the next LLM seamlessly continue the work.',
};

/** Codex counts tokens as bytes ÷ 4 when it budgets user messages. */
const approximateTokens = (text: string) => Math.ceil(new TextEncoder().encode(text).length / 4);

/** Codex's middle truncation: the head and tail of a message that crosses the budget, with a marker between. */
function truncateMiddle(text: string, budgetTokens: number): string {
  const keep = budgetTokens * 4;
  const dropped = approximateTokens(text) - budgetTokens;
  return `${text.slice(0, Math.floor(keep / 2))}…${dropped} tokens truncated…${text.slice(text.length - Math.ceil(keep / 2))}`;
}

/**
 * Codex CLI's local (non-remote) compaction: when a request passes 90% of the window
 * (auto_compact_token_limit) or the trigger, the model writes a handoff summary of the whole history; the
 * new history is the initial context (system), the most recent user messages up to 20,000 tokens in
 * their order (an older one that crosses the budget is cut), and the summary as a user message after Codex's summary
 * prefix. Every assistant message, tool call and tool output is gone. Codex checks its trigger on the last
 * response's usage; the replay checks it on the request about to be sent.
 */
export const codexPolicy: ReplayPolicyFactory = (context) => {
  const trigger = context.triggerTokens ?? Math.floor(context.window * codexDefaults.triggerShare);
  return {
    async step(history) {
      if (context.tokens(history) <= trigger) return { request: history, compacted: false };
      const system = systemPrefix(history);
      const body = history.slice(system.length);
      const summary = await context.summarize(body, codexDefaults.prompt);
      const userMessages = body.filter((message) => message.role === 'user' && message.meta?.ctxkit?.by !== 'codex');
      const kept: Message[] = [];
      let budget: number = codexDefaults.userMessageMaxTokens;
      for (let index = userMessages.length - 1; index >= 0 && budget > 0; index -= 1) {
        const message = userMessages[index]!;
        const text = textOf(message.content);
        const tokens = approximateTokens(text);
        if (tokens <= budget) {
          kept.unshift(message);
          budget -= tokens;
        } else {
          kept.unshift({ role: 'user', content: truncateMiddle(text, budget) });
          budget = 0;
        }
      }
      const request: Message[] = [...system, ...kept, summaryMessage(`${codexDefaults.summaryPrefix}\n${summary}`, 'codex', body.length)];
      return { request, history: request, compacted: true };
    },
  };
};
