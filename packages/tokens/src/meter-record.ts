import type { Message } from '@ctxkit/core';
import type { CounterKind } from './calibration.ts';
import { counterKind, modelKey } from './meter-counter.ts';
import { floorTokens } from './meter-counts.ts';
import { growingUpTo, syncLedger } from './meter-ledger.ts';
import { argumentError, type MeterState, transcript, wholeNumber } from './meter-state.ts';
import type { UsageReport } from './meter-types.ts';
import { isPlausibleUsage } from './usage-check.ts';

/** A checked usage report, with the floor's parts of the request it counted. */
interface RecordedRequest {
  readonly inputTokens: number;
  readonly messageCount: number;
  readonly model: string | undefined;
  readonly system: Message | undefined;
  readonly tools: readonly unknown[] | undefined;
  readonly inputIsLowerBound: boolean;
}

/** Brings the ledger to the transcript the report counted, or refuses a figure that matches no known transcript. */
function matchReportedTranscript(state: MeterState, report: UsageReport, messageCount: number): void {
  if (report.messages !== undefined) {
    syncLedger(state, transcript(report.messages, 'record'));
    if (messageCount > state.ledger.length) throw argumentError(`record: messageCount ${messageCount} is past the ${state.ledger.length} messages given`);
  } else if (messageCount !== state.ledger.length) {
    // Something other than the last measured transcript was sent (a compacted copy, say): a figure
    // matched to the wrong messages would anchor and calibrate on the wrong prefix.
    throw argumentError(
      `record: messageCount ${messageCount} does not match the ${state.ledger.length} messages of the last measured transcript; pass the messages that were sent as record({ messages })`,
    );
  }
}

function localCount(state: MeterState, request: RecordedRequest, kind: CounterKind): number {
  return floorTokens(state, request.system, request.tools, kind) + growingUpTo(state, kind, request.messageCount);
}

/**
 * The estimator learns from every report. The exact counter learns once its running sums exist (from the
 * first measurement it made without an anchor), so a report never costs a full recount.
 */
function calibrate(state: MeterState, request: RecordedRequest, inUse: CounterKind): void {
  const key = modelKey(request.model);
  state.calibration.observe(key, 'estimate', request.inputTokens, localCount(state, request, 'estimate'));
  if (inUse === 'exact' && state.cumulative.exact.length > 1) state.calibration.observe(key, 'exact', request.inputTokens, localCount(state, request, 'exact'));
}

/** The figure to anchor on: the report, or the calibrated local count when the report undercounts or is not believed. */
function anchorFigure(state: MeterState, request: RecordedRequest): number {
  const { inputTokens, model } = request;
  const inUse = counterKind(state, undefined, 'record');
  // Checked against the running sums that exist already (the estimate's, or the exact ones once
  // built), so the check never costs a recount.
  const checkKind: CounterKind = inUse === 'exact' && state.cumulative.exact.length > 1 ? 'exact' : 'estimate';
  const checked = localCount(state, request, checkKind);
  const plausible = isPlausibleUsage(inputTokens, checked, state.plausibleUsageRatio);
  if (!request.inputIsLowerBound && plausible) {
    if (state.calibrating) calibrate(state, request, inUse);
    return inputTokens;
  }
  // The real figure is at least the report; the calibrated local count is the better guess above it.
  const reported = Math.max(inputTokens, Math.ceil(state.calibration.ratio(modelKey(model), inUse) * localCount(state, request, inUse)));
  if (!plausible && !request.inputIsLowerBound) {
    const reason = `the provider reported ${inputTokens} input tokens, under ${state.plausibleUsageRatio} of the ${checked} counted locally; anchored on ${reported} instead`;
    state.onDistrustedUsage({ reported: inputTokens, local: checked, used: reported, model, reason });
  }
  return reported;
}

/**
 * `meter.record`: takes the provider's figure for the last request as the anchor of the next
 * measurements, and folds it into the model's calibration.
 * @throws CtxkitError INVALID_ARGUMENT for a negative or fractional figure, or a messageCount past the transcript
 */
export function recordUsage(state: MeterState, report: UsageReport): void {
  if (typeof report !== 'object' || report === null) throw argumentError('record: expects { inputTokens, messageCount, model? }');
  const inputTokens = wholeNumber('record: inputTokens', report.inputTokens);
  const messageCount = wholeNumber('record: messageCount', report.messageCount);
  matchReportedTranscript(state, report, messageCount);
  const tools = report.tools ?? state.lastTools;
  const model = report.model;
  const system = state.ledger[0]?.role === 'system' && messageCount > 0 ? state.ledger[0] : undefined;
  const request: RecordedRequest = { inputTokens, messageCount, model, system, tools, inputIsLowerBound: Boolean(report.inputIsLowerBound) };
  state.anchor = { reported: anchorFigure(state, request), messageCount, model, system, tools };
}
