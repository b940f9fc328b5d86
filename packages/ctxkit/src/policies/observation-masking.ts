import { textOf } from '@ctxkit/core';
import { createClearingView, type ReplayPolicyFactory } from './replay-policy.ts';

/** Tool observations kept verbatim, newest first ("The Complexity Trap", arXiv 2508.21433: M = 10). */
export const observationMaskingWindow = 10;

/**
 * Observation masking as OpenHands and SWE-agent run it in "The Complexity Trap" (arXiv 2508.21433): at
 * every step the newest 10 tool observations stay verbatim and each older one is replaced by a one-line
 * placeholder naming how many lines it had (SWE-agent's `LastNObservations` text); the task, the agent's
 * reasoning and actions are all kept. It has no trigger and no fallback: ten large observations can
 * still overflow a small window. With a trigger set it masks only on steps whose full request exceeds it.
 */
export const observationMaskingPolicy: ReplayPolicyFactory = (context) => {
  const view = createClearingView('observation-masking', (message) => {
    const images = typeof message.content === 'string' ? 0 : message.content.filter((part) => part.type === 'image').length;
    return `Old environment output: (${textOf(message.content).split('\n').length} lines omitted)${images > 0 ? ` (${images} images omitted)` : ''}`;
  });
  return {
    async step(history) {
      if (context.triggerTokens !== undefined && context.tokens(history) <= context.triggerTokens) return { request: history, compacted: false };
      const toolIndices = history.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
      const masked = new Set(toolIndices.slice(0, Math.max(0, toolIndices.length - observationMaskingWindow)));
      const { request, changed } = view(history, (index) => masked.has(index));
      return { request, compacted: changed > 0 };
    },
  };
};
