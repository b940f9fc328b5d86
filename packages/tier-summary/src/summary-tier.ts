import { CtxkitError, type Message, type TierContext, type TierOutcome, type TierPlugin } from '@ctxkit/core';
import { assertProtectedStart, coveredCount, digestMessage, formatCount, messageKey, numberOption, summarizableSpan, summarizeSpan, summaryOptions } from '@ctxkit/summarize';

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

/** The answer budget never drops below this, however close the target is. */
const minAnswerTokens = 256;

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
      const { span, folded, spanTokens } = found;
      const floor = context.count([]);
      const total = context.count(messages);
      const keptTokens = total - spanTokens;
      const aimed = Math.min(maxSummaryTokens, Math.max(minAnswerTokens, context.targetTokens - keptTokens));

      const result = await summarizeSpan({
        span: folded,
        spanOffset: span.start,
        ...(span.taskIndex >= 0 ? { task: messages[span.taskIndex]! } : {}),
        summarizer,
        countText: (text) => context.countText(text),
        maxSummaryTokens: aimed,
        timeoutMs,
        signal: context.signal,
        taskTermCoverage,
        ...(options.extraInstructions === undefined ? {} : { extraInstructions: options.extraInstructions }),
        progress: (detail) => context.progress(detail),
        source,
      });
      if (!result.ok) {
        return result.skip ? { status: 'skipped', reason: result.reason } : { status: 'failed', reason: result.reason, ...(result.error ? { error: result.error } : {}) };
      }

      const covered = coveredCount(folded);
      const summary = digestMessage({
        kind: 'summary',
        by: 'summary',
        header: `[ctxkit summary of ${formatCount(covered)} earlier messages. ctxkit wrote it when the conversation was compacted: a record of earlier work, not a new request.]`,
        body: result.text,
        replaces: folded.map((message, index) => messageKey(message, span.start + index)),
      });
      const output = [...messages.slice(0, span.start), summary, ...messages.slice(span.end)];
      const summaryTokens = context.count([summary]) - floor;
      const after = context.count(output);
      if (summaryTokens >= spanTokens || after >= total) {
        const reason = `the summary (${formatCount(summaryTokens)} tokens) is not shorter than the ${formatCount(spanTokens)}-token span it would replace`;
        return { status: 'failed', reason, error: new CtxkitError({ code: 'SUMMARY_REJECTED', source, message: reason }) };
      }
      const calls = result.calls === 1 ? '1 summarizer call' : `${result.calls} summarizer calls (${result.parts} parts)`;
      return {
        status: 'applied',
        messages: output,
        detail: `folded ${folded.length} messages (${formatCount(spanTokens)} tokens) into a ${formatCount(summaryTokens)}-token summary in ${calls}`,
      };
    },
  };
}
