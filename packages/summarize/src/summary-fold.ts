import { CtxkitError, type Message, messageKey, type SummarizerPlugin, type TierContext, type TierOutcome } from '@ctxkit/core';
import { coveredCount, digestMessage, type FoldSpan, formatCount } from './fold-span.ts';
import { type SpanSummaryRequest, type SpanSummaryResult, summarizeSpan } from './summarize-span.ts';

/** The summary's answer budget never drops below this, however close the target is. */
export const minAnswerTokens = 256;

/** A span a summarizing tier folds: where it is, its messages, and their tokens without the floor. */
export interface FoldedSpan {
  span: FoldSpan;
  folded: readonly Message[];
  spanTokens: number;
}

/**
 * Tokens a summary may take: what the target leaves once the span is gone, at least
 * {@link minAnswerTokens} and at most `maxSummaryTokens`.
 */
export function summaryBudget(context: Pick<TierContext, 'targetTokens' | 'currentTokens'>, spanTokens: number, maxSummaryTokens: number): number {
  return Math.min(maxSummaryTokens, Math.max(minAnswerTokens, context.targetTokens - (context.currentTokens - spanTokens)));
}

/** What a tier sets on its summary request; the span, the task and the budget come from {@link summarizeFold}. */
export interface FoldSummarySettings {
  summarizer: SummarizerPlugin;
  /** The tier's most summary tokens; the request asks for {@link summaryBudget} of it. */
  maxSummaryTokens: number;
  timeoutMs: number;
  taskTermCoverage: number;
  extraInstructions?: string | undefined;
  /** The package name in error messages: `tier-summary`. */
  source: string;
  /** Counts text for chunking. @default context.countText */
  countText?: SpanSummaryRequest['countText'];
  /** Hears progress. @default context.progress */
  progress?: SpanSummaryRequest['progress'];
}

/**
 * Summarizes a folded span with {@link summarizeSpan}: the task (when there is one) goes along, the
 * answer is asked to fit what the target leaves, and the tier's context counts and reports progress
 * unless the settings say otherwise.
 */
export function summarizeFold(messages: readonly Message[], found: FoldedSpan, context: TierContext, settings: FoldSummarySettings): Promise<SpanSummaryResult> {
  const { span, folded, spanTokens } = found;
  return summarizeSpan({
    span: folded,
    spanOffset: span.start,
    ...(span.taskIndex >= 0 ? { task: messages[span.taskIndex]! } : {}),
    summarizer: settings.summarizer,
    countText: settings.countText ?? ((text) => context.countText(text)),
    maxSummaryTokens: summaryBudget(context, spanTokens, settings.maxSummaryTokens),
    timeoutMs: settings.timeoutMs,
    signal: context.signal,
    taskTermCoverage: settings.taskTermCoverage,
    ...(settings.extraInstructions === undefined ? {} : { extraInstructions: settings.extraInstructions }),
    progress: settings.progress ?? ((detail) => context.progress(detail)),
    source: settings.source,
  });
}

/** The header of a model summary: how many messages it stands for, and that ctxkit (on this device, for an on-device model) wrote it. */
export function summaryHeader(covered: number, onDevice = false): string {
  const wrote = onDevice ? ', written on this device' : '. ctxkit wrote it';
  return `[ctxkit summary of ${formatCount(covered)} earlier messages${wrote} when the conversation was compacted: a record of earlier work, not a new request.]`;
}

/** A span replaced by its summary, or the summary's size when it is not shorter. */
export type SummaryFold = { ok: true; messages: Message[]; summaryTokens: number; tokens: number } | { ok: false; summaryTokens: number; reason: string };

/**
 * Puts a summary in the span's place: a `summary` digest by tier `by`, naming every message it
 * replaces. Accepted only when the summary is shorter than the span and the transcript shrinks;
 * `tokens` is the output's whole-request count (`context.count`), for the tier's outcome.
 */
export function foldSummary(
  messages: readonly Message[],
  found: FoldedSpan,
  context: Pick<TierContext, 'count' | 'currentTokens' | 'floorTokens'>,
  written: { by: string; header: string; text: string },
): SummaryFold {
  const { span, folded, spanTokens } = found;
  const summary = digestMessage({
    kind: 'summary',
    by: written.by,
    header: written.header,
    body: written.text,
    replaces: folded.map((message, index) => messageKey(message, span.start + index)),
  });
  const summaryTokens = context.count([summary]) - context.floorTokens;
  const output = [...messages.slice(0, span.start), summary, ...messages.slice(span.end)];
  const tokens = context.count(output);
  if (summaryTokens >= spanTokens || tokens >= context.currentTokens) {
    return { ok: false, summaryTokens, reason: `the summary (${formatCount(summaryTokens)} tokens) is not shorter than the ${formatCount(spanTokens)}-token span it would replace` };
  }
  return { ok: true, messages: output, summaryTokens, tokens };
}

/** The outcome of a fold whose summary was not shorter: `failed`, with a `SUMMARY_REJECTED` error. */
export function rejectedSummary(reason: string, source: string): TierOutcome {
  return { status: 'failed', reason, error: new CtxkitError({ code: 'SUMMARY_REJECTED', source, message: reason }) };
}

/** The outcome of a summary that was not written: `skipped` when nothing was attempted, else `failed` with its error. */
export function unwrittenSummary(result: Extract<SpanSummaryResult, { ok: false }>): TierOutcome {
  return result.skip ? { status: 'skipped', reason: result.reason } : { status: 'failed', reason: result.reason, ...(result.error ? { error: result.error } : {}) };
}

/** How many summarizer calls a summary took, for a tier's detail: `1 call` or `3 calls (2 parts)`. */
export function callsDetail(result: { calls: number; parts: number }, call: string, part: string): string {
  return result.calls === 1 ? `1 ${call}` : `${result.calls} ${call}s (${result.parts} ${part}s)`;
}

/** What {@link foldSpanSummary} writes, besides the request settings. */
export interface SpanFoldSettings extends FoldSummarySettings {
  /** The tier id, for `meta.ctxkit.by`. */
  by: string;
  /** The header says the summary was written on this device. */
  onDevice?: boolean;
  /** Asked after a failed summary: true tries once more (webllm, after its model corrected the token ratio). */
  retry?: (result: Extract<SpanSummaryResult, { ok: false }>) => boolean;
}

/** A span folded into its summary, or the outcome and reason of a summary that was not written or not shorter. */
export type SpanFold =
  | { ok: true; messages: Message[]; tokens: number; summaryTokens: number; calls: number; parts: number }
  | { ok: false; outcome: TierOutcome; reason: string; error?: CtxkitError; summaryTokens?: number };

/**
 * The ending every summarizing tier shares: summarizes the span ({@link summarizeFold}), puts the summary
 * in its place ({@link foldSummary}), and says what failed, as the `skipped`/`failed` outcome a tier
 * returns as is (tier-summary, tier-webllm) or a reason it falls back on (tier-trim).
 */
export async function foldSpanSummary(messages: readonly Message[], found: FoldedSpan, context: TierContext, settings: SpanFoldSettings): Promise<SpanFold> {
  let result = await summarizeFold(messages, found, context, settings);
  if (!result.ok && settings.retry?.(result)) result = await summarizeFold(messages, found, context, settings);
  if (!result.ok) return { ok: false, outcome: unwrittenSummary(result), reason: result.reason, ...(result.error ? { error: result.error } : {}) };
  const fold = foldSummary(messages, found, context, { by: settings.by, header: summaryHeader(coveredCount(found.folded), settings.onDevice), text: result.text });
  if (!fold.ok) return { ok: false, outcome: rejectedSummary(fold.reason, settings.source), reason: fold.reason, summaryTokens: fold.summaryTokens };
  return { ok: true, messages: fold.messages, tokens: fold.tokens, summaryTokens: fold.summaryTokens, calls: result.calls, parts: result.parts };
}
