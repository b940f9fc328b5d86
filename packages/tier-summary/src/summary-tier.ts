import type { Message, TierContext, TierOutcome, TierPlugin } from '@ctxkit/core';
import { assertProtectedStart, callsDetail, foldSpanSummary, formatCount, numberOption, summarizableSpan, summaryOptions } from '@ctxkit/summarize';

const source = 'tier-summary';

/** Options for {@link summaryTier}. */
export interface SummaryTierOptions {
  /**
   * Time for the whole summary (every summarizer call, parts and merges together) before it is
   * rejected as timed out; `Infinity` for none. `context.signal` aborts it too.
   * @default 120_000
   */
  timeoutMs?: number;
  /** The most tokens the summary may take; the summarizer is asked for less when the target calls for it. @default 2_000 */
  maxSummaryTokens?: number;
  /** Spans smaller than this are left alone: a model call and a broken prompt cache are not worth fewer tokens. @default 500 */
  minSpanTokens?: number;
  /**
   * Share of the task's key terms (identifiers, paths, uncommon words) the summary's Task section must
   * mention, else the summary "lost the task" and is rejected. 0 only requires a non-empty Task section.
   * @default 0.3
   */
  taskTermCoverage?: number;
  /** Lines appended to the summarizer's instructions: a language, what matters in your domain. */
  extraInstructions?: string;
}

/**
 * Tier 0: folds the span between the task and the protected recent turns into one structured summary
 * written by the active model (`context.summarizer`). Chunks spans larger than the summarizer's window
 * and merges the part summaries; merges earlier ctxkit summaries instead of stacking them; frames the
 * transcript as data so instructions inside tool output are not followed. A summary that failed, timed
 * out, came back empty, lost the task or is not shorter is rejected (`failed`), and the history stays.
 *
 * When to use: first in the pipeline, while the model can still see the tool output it summarizes.
 * Gotcha: the summary is a `user` message (kind `summary`), so the transcript keeps its roles valid.
 * @throws CtxkitError INVALID_ARGUMENT for an option out of range (at creation), or a `context.protectedStart` outside the transcript
 * @example
 * ```ts
 * import { summaryTier } from '@ctxkit/tier-summary';
 * // Tier 0 runs first; the engine's createContextManager hands it the serving model's summarizer.
 * const plugins = [summaryTier({ timeoutMs: 60_000 }), microcompactTier(), trimTier(), openaiProvider({ apiKey })];
 * ```
 */
export function summaryTier(options: SummaryTierOptions = {}): TierPlugin<'summary'> {
  const { timeoutMs, maxSummaryTokens, taskTermCoverage } = summaryOptions(source, options, { timeoutMs: 120_000, maxSummaryTokens: 2_000 });
  const minSpanTokens = numberOption(source, 'minSpanTokens', options.minSpanTokens, 500, { min: 0 });

  return {
    specificationVersion: 'v1',
    kind: 'tier',
    id: 'summary',
    category: 'model',
    async apply(messages: readonly Message[], context: TierContext): Promise<TierOutcome> {
      assertProtectedStart(messages, context.protectedStart, source);
      const summarizer = context.summarizer;
      if (!summarizer) return { status: 'skipped', reason: 'no summarizer: register one, or a provider whose summarizer serves the active model' };
      const found = summarizableSpan(messages, context, minSpanTokens);
      if ('skip' in found) return { status: 'skipped', reason: found.skip };
      const fold = await foldSpanSummary(messages, found, context, { summarizer, maxSummaryTokens, timeoutMs, taskTermCoverage, extraInstructions: options.extraInstructions, source, by: 'summary' });
      if (!fold.ok) return fold.outcome;
      return {
        status: 'applied',
        messages: fold.messages,
        tokens: fold.tokens,
        detail: `folded ${found.folded.length} messages (${formatCount(found.spanTokens)} tokens) into a ${formatCount(fold.summaryTokens)}-token summary in ${callsDetail(fold, 'summarizer call', 'part')}`,
      };
    },
  };
}
