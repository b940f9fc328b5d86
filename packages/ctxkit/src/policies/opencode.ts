import { type Message, segmentRounds, textOf } from '@ctxkit/core';
import { createClearingView, type ReplayPolicyFactory, summaryMessage, systemPrefix } from './replay-policy.ts';

/** opencode's session compaction constants (see docs/policies.md for the source). */
export const opencodeDefaults = {
  /** COMPACTION_BUFFER: the reserve is min(this, the model's max output), on top of the max output. */
  compactionBuffer: 20_000,
  /** PRUNE_PROTECT: the newest tool output tokens that prune never clears. */
  pruneProtectTokens: 40_000,
  /** PRUNE_MINIMUM: prune clears only when it frees more than this. */
  pruneMinimumTokens: 20_000,
  /** User turns, newest first, whose tool output prune never clears. */
  protectedTurns: 2,
  /** The recent tail kept verbatim: min(15,000, max(2,000, 25% of the usable input)). */
  tailShare: 0.25,
  tailMinimumTokens: 2_000,
  tailMaximumTokens: 15_000,
  placeholder: '[Old tool result content cleared]',
  continuation: 'Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.',
  prompt:
    'Provide a detailed prompt for continuing our conversation above. Focus on information that would be helpful for continuing the conversation, including what we did, what we are doing, which files we are working on, and what we are going to do next. Use the sections: ## Goal, ## Instructions, ## Discoveries, ## Accomplished, ## Relevant files / directories.',
} as const;

/** opencode's own estimate: characters ÷ 4. */
const estimate = (text: string) => Math.round(text.length / 4);

/**
 * opencode: prune walks back over tool outputs outside the last 2 user turns, protects the newest 40,000
 * tokens of them and clears the older ones only when that frees more than 20,000 (opt-in in the newest
 * version, on in older ones; it needs two user turns, so it never fires in a single-prompt loop). When a
 * request reaches the usable input (the window less the max output less min(20,000, max output), or the
 * trigger) the session is compacted: a recent tail of min(15,000, max(2,000, 25% of usable)) tokens stays
 * verbatim, starting at a round so tool pairs hold, the model summarizes the head, and a synthetic user
 * message asks it to continue.
 */
export const opencodePolicy: ReplayPolicyFactory = (context) => {
  const reserved = Math.min(opencodeDefaults.compactionBuffer, context.maxOutputTokens);
  const usable = context.triggerTokens ?? Math.max(0, context.window - context.maxOutputTokens - reserved);
  const tailBudget = Math.min(opencodeDefaults.tailMaximumTokens, Math.max(opencodeDefaults.tailMinimumTokens, Math.floor(usable * opencodeDefaults.tailShare)));
  const view = createClearingView('opencode', () => opencodeDefaults.placeholder);
  const cleared = new Set<Message>();
  return {
    async step(history) {
      let turns = 0;
      let total = 0;
      let pruned = 0;
      const toPrune: Message[] = [];
      for (let index = history.length - 1; index >= 0; index -= 1) {
        const message = history[index]!;
        if (message.role === 'user' && message.meta?.ctxkit?.kind !== 'summary') turns += 1;
        if (message.meta?.ctxkit?.by === 'opencode' && message.meta.ctxkit.kind === 'summary') break;
        if (turns < opencodeDefaults.protectedTurns || message.role !== 'tool') continue;
        if (cleared.has(message)) break;
        const tokens = estimate(textOf(message.content));
        total += tokens;
        if (total > opencodeDefaults.pruneProtectTokens) {
          pruned += tokens;
          toPrune.push(message);
        }
      }
      let compacted = false;
      if (pruned > opencodeDefaults.pruneMinimumTokens) {
        for (const message of toPrune) cleared.add(message);
        compacted = true;
      }
      const current = cleared.size > 0 ? view(history, (index) => cleared.has(history[index]!)).request : history;
      if (context.tokens(current) < usable) return { request: current, history: [...current], compacted };
      const system = systemPrefix(current);
      // The tail: the longest suffix starting at a round that fits the tail budget (none when even the last round does not).
      let tailStart = current.length;
      for (const round of segmentRounds(current).reverse()) {
        if (context.tokens(current.slice(round.start)) > tailBudget) break;
        tailStart = round.start;
      }
      const head = current.slice(system.length, tailStart);
      if (head.length === 0) return { request: current, history: [...current], compacted };
      const summary = await context.summarize(head, opencodeDefaults.prompt);
      const request: Message[] = [
        ...system,
        summaryMessage(summary, 'opencode', head.length),
        { role: 'assistant', content: 'Summary recorded.' },
        ...current.slice(tailStart),
        ...(tailStart === current.length ? [{ role: 'user', content: opencodeDefaults.continuation } as Message] : []),
      ];
      return { request, history: request, compacted: true };
    },
  };
};
