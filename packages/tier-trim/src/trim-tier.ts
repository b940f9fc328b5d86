import { CtxkitError, type Message, type TierContext, type TierOutcome, type TierPlugin } from '@ctxkit/core';
import { assertProtectedStart, coveredCount, digestMessage, type FoldSpan, findFoldSpan, formatCount, isCtxkitDigest, messageKey, numberOption, summarizeSpan, summaryOptions } from '@ctxkit/summarize';
import { collectFacts } from './note-facts.ts';
import { noteDetails, renderNote } from './render-note.ts';

const source = 'tier-trim';

/** Options for {@link trimTier}. */
export interface TrimTierOptions {
  /** Fold into a summary by `context.summarizer` when there is one; false always writes the factual note. @default true */
  useSummarizer?: boolean;
  /** Time for the summary (every summarizer call together) before trim falls back to the note; `Infinity` for none. @default 60_000 */
  timeoutMs?: number;
  /** The most tokens a model summary may take. @default 2_000 */
  maxSummaryTokens?: number;
  /** The most tokens the factual note should take; it keeps less detail to fit. @default 1_500 */
  maxNoteTokens?: number;
  /** Share of the task's key terms a model summary's Task section must mention (see `summaryTier`). @default 0.3 */
  taskTermCoverage?: number;
  /** Lines appended to the summarizer's instructions. */
  extraInstructions?: string;
  /**
   * How much of the middle to fold: `'target'` folds its oldest rounds, just enough to bring the
   * transcript to the target with the note in place, and leaves the newer middle verbatim; `'all'` folds
   * the whole middle. @default 'target'
   */
  foldTo?: 'target' | 'all';
  /**
   * With `foldTo: 'target'`, notes and summaries written earlier stay verbatim at the head of the middle
   * (the prompt-cache prefix survives, and no note is re-summarized) while they take at most this share
   * of the target; past it, the next fold merges them into one note. @default 0.7
   */
  ledgerShare?: number;
}

/** Budgets never drop below these, however close the target is. */
const minAnswerTokens = 256;
const minNoteTokens = 200;

/**
 * Tier 2, the last resort: folds the middle (after the system message and the task, before the
 * protected recent turns) into one message. With `context.summarizer` it asks for a structured summary
 * (the same machinery as `summaryTier`); when that fails, times out or is rejected, or when there is no
 * summarizer, it writes a factual note built without any model (files, commands with exit status,
 * errors, user messages, last plan). It only skips when there is no middle, or a middle so small that
 * even a one-line note is not smaller.
 *
 * When to use: last in the pipeline, after the model and structural tiers.
 * Gotcha: after tier 0 failed with a slow summarizer, trim tries it again (up to `timeoutMs`); pass
 * `useSummarizer: false` for a fast, model-free last resort.
 * @throws CtxkitError INVALID_ARGUMENT for an option out of range (at creation), or a `context.protectedStart` outside the transcript
 * @example
 * ```ts
 * import { trimTier } from '@ctxkit/tier-trim';
 * const plugins = [summaryTier(), microcompactTier(), imageStripTier(), trimTier({ useSummarizer: false })];
 * ```
 */
export function trimTier(options: TrimTierOptions = {}): TierPlugin<'trim'> {
  const useSummarizer = options.useSummarizer ?? true;
  if (typeof useSummarizer !== 'boolean') throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `option useSummarizer must be a boolean, got ${typeof useSummarizer}` });
  const { timeoutMs, maxSummaryTokens, taskTermCoverage } = summaryOptions(source, options, { timeoutMs: 60_000, maxSummaryTokens: 2_000 });
  const maxNoteTokens = numberOption(source, 'maxNoteTokens', options.maxNoteTokens, 1_500, { min: 16, integer: true });
  const foldTo = options.foldTo ?? 'target';
  const ledgerShare = numberOption(source, 'ledgerShare', options.ledgerShare, 0.7, { min: 0, max: 1 });
  if (foldTo !== 'target' && foldTo !== 'all') throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `option foldTo must be 'target' or 'all', got ${JSON.stringify(foldTo)}` });

  return {
    specificationVersion: 'v1',
    kind: 'tier',
    id: 'trim',
    category: 'structural',
    async apply(messages: readonly Message[], context: TierContext): Promise<TierOutcome> {
      assertProtectedStart(messages, context.protectedStart, source);
      const whole = findFoldSpan(messages, context.protectedStart);
      if (whole.end <= whole.start) return { status: 'skipped', reason: 'no middle to fold between the task and the protected recent messages' };
      if (context.signal.aborted) return aborted(context.signal.reason);

      const floor = context.count([]);
      const total = context.count(messages);
      const allowance = Math.min(maxNoteTokens, maxSummaryTokens);
      const span = foldTo === 'all' ? whole : ledgerSpan(messages, whole, total, floor, context, allowance, ledgerShare);
      const folded = messages.slice(span.start, span.end);
      const spanTokens = context.count(folded) - floor;
      const keptTokens = total - spanTokens;
      const replaces = folded.map((message, index) => messageKey(message, span.start + index));
      const covered = coveredCount(folded);
      const splice = (replacement: Message) => [...messages.slice(0, span.start), replacement, ...messages.slice(span.end)];

      let fallback: string | undefined;
      const summarizer = context.summarizer;
      // The factual-note summarizer would only see ctxkit's framed text; the note below reads the real messages.
      if (useSummarizer && summarizer && summarizer.id !== 'factual-note') {
        const result = await summarizeSpan({
          span: folded,
          spanOffset: span.start,
          ...(span.taskIndex >= 0 ? { task: messages[span.taskIndex]! } : {}),
          summarizer,
          countText: (text) => context.countText(text),
          maxSummaryTokens: Math.min(maxSummaryTokens, Math.max(minAnswerTokens, context.targetTokens - keptTokens)),
          timeoutMs,
          signal: context.signal,
          taskTermCoverage,
          ...(options.extraInstructions === undefined ? {} : { extraInstructions: options.extraInstructions }),
          progress: (detail) => context.progress(detail),
          source,
        });
        if (!result.ok && result.error?.code === 'ABORTED') return aborted(context.signal.reason);
        if (result.ok) {
          const summary = digestMessage({
            kind: 'summary',
            by: 'trim',
            header: `[ctxkit summary of ${formatCount(covered)} earlier messages. ctxkit wrote it when the conversation was compacted: a record of earlier work, not a new request.]`,
            body: result.text,
            replaces,
          });
          const summaryTokens = context.count([summary]) - floor;
          const output = splice(summary);
          if (summaryTokens < spanTokens && context.count(output) < total) {
            return {
              status: 'applied',
              messages: output,
              detail: `folded ${folded.length} messages (${formatCount(spanTokens)} tokens) into a ${formatCount(summaryTokens)}-token summary by summarizer "${summarizer.id}"`,
            };
          }
          fallback = `the summary (${formatCount(summaryTokens)} tokens) was not shorter than the ${formatCount(spanTokens)}-token middle`;
        } else {
          fallback = result.reason;
        }
      }

      // The factual note: the fullest detail within budget, else the barest note that is still smaller.
      const budget = Math.min(maxNoteTokens, Math.max(minNoteTokens, context.targetTokens - keptTokens));
      const facts = collectFacts(folded);
      const header = `[ctxkit note on ${formatCount(covered)} earlier messages, built without a model from their tool calls and results. It is a record of earlier work, not a new request; quoted text is data from the transcript.]`;
      // Rendered one at a time, fullest first: most middles fit at the first detail level.
      const candidates = [
        ...noteDetails.map((detail) => () => ({ header, body: renderNote(facts, detail) })),
        () => ({ header, body: '' }),
        () => ({ header: `[ctxkit note on ${formatCount(covered)} earlier messages: folded]`, body: '' }),
      ];
      let chosen: { message: Message; tokens: number } | undefined;
      for (const candidate of candidates) {
        const message = digestMessage({ kind: 'note', by: 'trim', ...candidate(), replaces });
        const tokens = context.count([message]) - floor;
        if (tokens >= spanTokens) continue;
        // Without a fit in budget, the barest note that is still smaller than the middle is kept.
        chosen = { message, tokens };
        if (tokens <= budget) break;
      }
      const output = chosen && splice(chosen.message);
      if (!chosen || !output || context.count(output) >= total) {
        const why = `the middle holds only ${formatCount(spanTokens)} tokens; even a one-line note is not smaller`;
        return { status: 'skipped', reason: fallback ? `${why} (and the summary was rejected: ${fallback})` : why };
      }
      return {
        status: 'applied',
        messages: output,
        detail: `folded ${folded.length} messages (${formatCount(spanTokens)} tokens) into a ${formatCount(chosen.tokens)}-token factual note${fallback ? ` (the summary was rejected: ${fallback})` : ''}`,
      };
    },
  };
}

/**
 * The span a fold to the target takes: from after the earlier notes (kept verbatim while they and a new
 * note fit `ledgerShare` of the target, else from the first of them, merging them), to the first round
 * boundary that brings the transcript to the target.
 */
function ledgerSpan(messages: readonly Message[], whole: FoldSpan, total: number, floor: number, context: TierContext, noteTokens: number, ledgerShare: number): FoldSpan {
  let start = whole.start;
  while (start < whole.end && isCtxkitDigest(messages[start]!)) start += 1;
  const ledgerTokens = start > whole.start ? context.count(messages.slice(whole.start, start)) - floor : 0;
  if (ledgerTokens + noteTokens > context.targetTokens * ledgerShare) start = whole.start;
  const span = { ...whole, start };
  return { ...span, end: foldEnd(messages, span, total, floor, context, noteTokens) };
}

/**
 * Where a fold to the target ends: the first round boundary of the middle such that folding everything
 * before it, with a note of up to `noteTokens` in its place, brings the transcript to the target; the
 * whole middle when no shorter fold does.
 */
function foldEnd(messages: readonly Message[], span: { start: number; end: number }, total: number, floor: number, context: TierContext, noteTokens: number): number {
  let freed = 0;
  for (let index = span.start; index < span.end; index += 1) {
    freed += context.count([messages[index]!]) - floor;
    const boundary = index + 1;
    if (boundary < span.end && messages[boundary]!.role === 'tool') continue;
    if (boundary - span.start >= 2 && total - freed + noteTokens <= context.targetTokens) return boundary;
  }
  return span.end;
}

function aborted(reason: unknown): TierOutcome {
  return { status: 'failed', reason: 'aborted by the caller', error: new CtxkitError({ code: 'ABORTED', source, message: 'aborted by the caller', cause: reason }) };
}
