/** Options for how deep a compaction goes: {@link ContextManagerOptions.compactionDepth}. */
export interface CompactionDepthOptions {
  /** Steps of growth, at the run's typical step size, that a compaction leaves room for below the threshold. @default 8 */
  stepsAhead?: number;
  /** The highest target, as a share of the threshold: a compaction always frees at least the rest, enough to pay for the cache it breaks. @default 0.8 */
  maxShare?: number;
  /** Steps whose growth is remembered. @default 16 */
  window?: number;
}

/**
 * Chooses how far a compaction goes from how the run grows. Each compaction breaks the prompt cache
 * behind its first change and costs a summary, so it should buy a number of steps; but every token
 * freed beyond that is context the agent loses for nothing. The target leaves room for `stepsAhead`
 * steps of the run's typical growth (the median of the last steps, and never less than the largest of
 * them, so one large tool result does not bring a refill). It never aims below the policy's target, and
 * never above `maxShare` of the threshold, so each compaction frees enough to pay for the cache it breaks.
 * Before the run has grown a step, it aims at the policy's target.
 */
export function createCompactionDepth(options: CompactionDepthOptions = {}) {
  const stepsAhead = options.stepsAhead ?? 8;
  const maxShare = options.maxShare ?? 0.8;
  const remembered = options.window ?? 16;
  const growth: number[] = [];
  let previous: number | undefined;
  return {
    /** Notes the size of the request a step measured. */
    observe(tokens: number): void {
      if (previous !== undefined && tokens > previous) {
        growth.push(tokens - previous);
        if (growth.length > remembered) growth.shift();
      }
      previous = tokens;
    },
    /** Notes the size a compaction left, so the next step's growth is counted from there. */
    compacted(tokens: number): void {
      previous = tokens;
    },
    /** The target for a compaction now: within [policyTarget, maxShare × threshold]. */
    target(threshold: number, policyTarget: number): number {
      if (growth.length === 0) return policyTarget;
      const sorted = [...growth].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      const room = Math.max(stepsAhead * median, sorted.at(-1)!);
      return Math.max(policyTarget, Math.min(Math.floor(threshold * maxShare), threshold - room));
    },
  };
}
