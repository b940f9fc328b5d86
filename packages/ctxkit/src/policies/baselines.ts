import { type Message, segmentRounds } from '@ctxkit/core';
import { type ReplayPolicyFactory, summaryMessage, systemPrefix } from './replay-policy.ts';

/** Sends everything: overflows once the run outgrows the window. */
export const nonePolicy: ReplayPolicyFactory = () => ({ step: async (history) => ({ request: history, compacted: false }) });

/**
 * Drops the oldest rounds (the task too: it is naive) until the request fits its window with the output
 * reserve, or under the trigger when one is set. The agent keeps its whole history; only the view slides.
 */
export const slidingWindowPolicy: ReplayPolicyFactory = (context) => {
  const limit = context.triggerTokens ?? context.window - context.maxOutputTokens;
  return {
    async step(history) {
      if (context.tokens(history) <= limit) return { request: history, compacted: false };
      const system = systemPrefix(history);
      const rounds = segmentRounds(history);
      for (const round of rounds) {
        const candidate = [...system, ...history.slice(round.start)];
        if (context.tokens(candidate) <= limit) return { request: candidate, compacted: true };
      }
      return { request: [...system, ...history.slice(rounds.at(-1)?.start ?? history.length)], compacted: true };
    },
  };
};

/** Summarizes everything but the last round once the request passes 90% of the window (or the trigger). */
export const summarizeAt90Policy: ReplayPolicyFactory = (context) => {
  const trigger = context.triggerTokens ?? context.window * 0.9;
  return {
    async step(history) {
      if (context.tokens(history) <= trigger) return { request: history, compacted: false };
      const system = systemPrefix(history);
      const keepFrom = segmentRounds(history).at(-1)?.start ?? history.length;
      const folded = history.slice(system.length, keepFrom);
      const text = await context.summarize(folded, 'Summarize the conversation so far for the agent that continues it.');
      const request: Message[] = [...system, summaryMessage(`[summary of ${folded.length} earlier messages]\n${text}`, 'summarize-at-90', folded.length), ...history.slice(keepFrom)];
      return { request, history: request, compacted: true };
    },
  };
};
