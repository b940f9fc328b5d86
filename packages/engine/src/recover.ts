import type { ErrorClassification, Message } from '@ctxkit/core';
import { compact } from './compact.ts';
import { decideWindow } from './decide-window.ts';
import type { ManagerParts } from './manager-parts.ts';
import type { PrepareOptions, RecoverResult } from './manager-types.ts';
import { providerFor } from './model-limits.ts';
import { buildPrepareReport } from './prepare-report.ts';

function isClassification(value: unknown): value is ErrorClassification {
  return typeof value === 'object' && value !== null && typeof (value as ErrorClassification).kind === 'string' && typeof (value as ErrorClassification).fallback === 'boolean';
}

/**
 * The error as a classification: passed through when it is one, else classified by the provider serving
 * the model. With neither, `unclassified` says so: an overflow then looks like any other error.
 */
function classify(parts: ManagerParts, model: string, error: unknown): { classification: ErrorClassification; unclassified?: true } {
  if (isClassification(error)) return { classification: error };
  const serving = providerFor(model, parts.providers);
  if (serving) return { classification: serving.provider.classifyError(error, { model: serving.model }) };
  return { classification: { kind: 'other', fallback: false, message: error instanceof Error ? error.message : String(error) }, unclassified: true };
}

/** Why a raw error with no provider plugin to read it ends recovery: the host can fix that. */
function unclassifiedReason(model: string): string {
  return `no provider plugin serves ${JSON.stringify(model)} to classify the error (an overflow is not recognised): register the provider's plugin, or pass a classification such as classifyError(error) of @ctxkit/provider-utils`;
}

/** A token figure of a classification when it is one (finite, not negative), else undefined: a host's own classification may carry NaN or -1. */
function figure(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The smallest output budget recovery offers: below it an answer is rarely worth having. */
const minimumOutput = 256;

/**
 * The output budget that fits beside the input the error stated: the limit less the input when the error gives
 * them apart ("364 in the messages, 32768 in the completion" against 32769), else the limit less the tokens it
 * reported.
 */
function roomFor(classification: ErrorClassification): number | undefined {
  const [limitTokens, inputTokens, reportedTokens] = [figure(classification.limitTokens), figure(classification.inputTokens), figure(classification.reportedTokens)];
  if (limitTokens === undefined) return undefined;
  if (inputTokens !== undefined) return limitTokens - inputTokens;
  return reportedTokens === undefined ? undefined : limitTokens - reportedTokens;
}

/**
 * The answer did not fit: the room the provider reported, else half the current budget, never under 256. The
 * current budget is the output the error says was requested, when it says: the client may ask for more than
 * the manager's `maxOutputTokens` (which then would halve a budget the request never used).
 */
async function lowerOutput(parts: ManagerParts, model: string, classification: ErrorClassification, signal: AbortSignal | undefined): Promise<RecoverResult> {
  const window = await decideWindow(parts, model, signal);
  const current = figure(classification.requestedOutputTokens) || window.maxOutputTokens || 4_096;
  const room = roomFor(classification);
  const lowered = Math.max(minimumOutput, Math.floor(room !== undefined && room > 0 && room < current ? room : current / 2));
  return { action: 'lower-output', classification, maxOutputTokens: lowered };
}

/** Why an overflow is not recovered (switched off, or this transcript was recovered already), or undefined to compact. */
function refusal(parts: ManagerParts, messages: readonly Message[]): string | undefined {
  if (parts.options.overflowRecovery === false) return 'overflow recovery is switched off';
  if (parts.recovered.get(messages) === messages.length) return 'this transcript was already compacted after an overflow; not retrying again';
  return undefined;
}

/** Lowers the model's window to the limit an overflow error named, when that is lower than what was known. */
function learnWindow(parts: ManagerParts, model: string, classification: ErrorClassification): void {
  const limitTokens = figure(classification.limitTokens);
  if (limitTokens === undefined || limitTokens <= 0) return;
  const known = parts.learned.get(model);
  if (known !== undefined && limitTokens >= known) return;
  parts.learned.set(model, limitTokens);
  parts.emit({ type: 'window-learned', model, contextWindow: limitTokens, from: classification });
}

/** Compacts once after an overflow, below the (possibly learned) window's target. */
async function compactAfterOverflow(parts: ManagerParts, messages: readonly Message[], classification: ErrorClassification, model: string, options: PrepareOptions): Promise<RecoverResult> {
  learnWindow(parts, model, classification);
  const window = await decideWindow(parts, model, options.signal);
  const tools = options.tools ?? parts.options.tools;
  const measurement = parts.meter.measure(messages, { ...(tools ? { tools } : {}), model });
  const compaction = await compact(parts, messages, {
    model,
    tools,
    target: window.target,
    threshold: window.threshold,
    trigger: 'overflow',
    signal: options.signal,
    measurement,
    estimateConfirmed: false,
  });
  parts.recovered.set(compaction.messages, compaction.messages.length);
  parts.memory.lastSent = { messages: compaction.messages, tools };
  const report = buildPrepareReport({ model, window, measurement, decision: 'forced', refill: false, compaction }, parts.breaker.snapshot());
  if (!compaction.applied || compaction.after >= compaction.before) {
    return { action: 'give-up', classification, report, reason: 'no tier could shrink the transcript' };
  }
  return { action: 'retry', classification, messages: compaction.messages, report };
}

/** What to do after a provider error: compact once on an overflow (never in a loop), lower the output budget, fall back, or give up. */
export async function recover(parts: ManagerParts, messages: readonly Message[], error: unknown, options: PrepareOptions = {}): Promise<RecoverResult> {
  const model = options.model ?? parts.options.model;
  const { classification, unclassified } = classify(parts, model, error);
  const result = unclassified ? ({ action: 'give-up', classification, reason: unclassifiedReason(model) } as const) : await recoveryFor(parts, messages, classification, model, options);
  parts.emit({ type: 'recover', model, action: result.action, classification, ...(result.action === 'give-up' ? { reason: result.reason } : {}) });
  return result;
}

/** The recovery an error calls for, by its classification. */
async function recoveryFor(parts: ManagerParts, messages: readonly Message[], classification: ErrorClassification, model: string, options: PrepareOptions): Promise<RecoverResult> {
  if (classification.kind === 'max_tokens') return lowerOutput(parts, model, classification, options.signal);
  if (classification.kind !== 'context_overflow') {
    return classification.fallback ? { action: 'fallback', classification } : { action: 'give-up', classification, reason: `the error (${classification.kind}) is not one compaction can fix` };
  }
  if (await outputOverruns(parts, model, classification, options.signal)) return lowerOutput(parts, model, classification, options.signal);
  const refused = refusal(parts, messages);
  if (refused) return { action: 'give-up', classification, reason: refused };
  return compactAfterOverflow(parts, messages, classification, model, options);
}

/**
 * True for an overflow that the output budget causes: the error states the input and the requested output
 * apart, the input is already at or below what compaction would aim for in the window the error names (so
 * compacting frees little), and the limit less the input leaves a useful answer. A smaller output budget is the
 * fix, not a shorter transcript. Off with `overflowRecovery: false`.
 */
async function outputOverruns(parts: ManagerParts, model: string, classification: ErrorClassification, signal: AbortSignal | undefined): Promise<boolean> {
  const [inputTokens, requestedOutputTokens, limitTokens] = [figure(classification.inputTokens), figure(classification.requestedOutputTokens), figure(classification.limitTokens)];
  if (inputTokens === undefined || requestedOutputTokens === undefined || limitTokens === undefined) return false;
  if (parts.options.overflowRecovery === false || limitTokens - inputTokens < minimumOutput || inputTokens + requestedOutputTokens <= limitTokens) return false;
  // The limit is the window as served: learned first, so the target below (and the next prepare) use it.
  learnWindow(parts, model, classification);
  const window = await decideWindow(parts, model, signal);
  return inputTokens <= window.target;
}
