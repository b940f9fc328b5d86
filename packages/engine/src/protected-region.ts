import { type Message, recentTurnsStart, segmentRounds } from '@ctxkit/core';

/** Where the verbatim recent region starts, and how it was chosen. */
export interface ProtectedRegion {
  start: number;
  by: 'turns' | 'rounds';
  /** How many turns or rounds it holds. */
  size: number;
}

/**
 * The recent region a compaction keeps verbatim: the last `keepRecentTurns` turns (a turn starts at a
 * user message). An agent run is often one user turn with hundreds of tool rounds; when the recent turns
 * alone would take more than `budgetTokens`, the region is the last rounds instead (an assistant message
 * with its tool results), as many as fit, at least one. See docs/decisions/0008-engine.md.
 */
export function protectedRegion(messages: readonly Message[], keepRecentTurns: number, budgetTokens: number, countSlice: (start: number) => number): ProtectedRegion {
  const byTurns = recentTurnsStart(messages, keepRecentTurns);
  // Tiers keep the task (the first user message) in place, so the foldable span lies after it; a region
  // that starts at or right after the task leaves nothing to compact.
  const task = messages.findIndex((message) => message.role === 'user');
  const foldFrom = task < 0 ? (messages[0]?.role === 'system' ? 1 : 0) : task + 1;
  if (keepRecentTurns <= 0 || (byTurns > foldFrom && countSlice(byTurns) <= budgetTokens)) {
    return { start: byTurns, by: 'turns', size: keepRecentTurns };
  }
  const rounds = segmentRounds(messages).filter((round) => round.start >= foldFrom);
  let start = rounds.at(-1)?.start ?? messages.length;
  let size = rounds.length > 0 ? 1 : 0;
  for (let kept = 2; kept <= Math.min(keepRecentTurns, rounds.length); kept++) {
    const candidate = rounds[rounds.length - kept]!.start;
    if (countSlice(candidate) > budgetTokens) break;
    start = candidate;
    size = kept;
  }
  return { start, by: 'rounds', size };
}
