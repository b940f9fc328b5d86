import { assertValidTranscript, type Message } from '@ctxkit/core';
import type { Measurement, MeasureOptions } from '@ctxkit/tokens';
import { type Compaction, compact } from './compact.ts';
import { decideWindow, type WindowDecision } from './decide-window.ts';
import type { ManagerParts } from './manager-parts.ts';
import type { PrepareOptions, PrepareReport, PrepareResult } from './manager-types.ts';
import { buildPrepareReport, type StepFindings } from './prepare-report.ts';
import { checkToolOptions, type LoadedTools, loadTools } from './tool-loader.ts';

/** The request one prepare works on: the transcript, the serving model and the tools it sends. */
interface PrepareRequest {
  readonly messages: readonly Message[];
  readonly model: string;
  readonly tools: readonly unknown[] | undefined;
  /** What the tool loader decided, when one is set. */
  readonly loading: LoadedTools | undefined;
  readonly measureOptions: MeasureOptions;
}

/** Whether to compact, and the measurement that decision rests on (an exact recount when an estimate was over). */
interface CompactVerdict {
  readonly measurement: Measurement;
  /** Why not, or undefined to compact. */
  readonly decision?: Exclude<PrepareReport['decision'], 'compacted' | 'nothing-shrank' | 'forced'>;
}

/** Rejects a malformed transcript (CtxkitError INVALID_TRANSCRIPT); only messages new since the last call are checked. */
function validateRequest(parts: ManagerParts, messages: readonly Message[]): void {
  if (parts.validator.check(messages).length > 0) assertValidTranscript(messages, 'engine');
}

/** The model, and the tools this request sends: the tool loader's choice, else the call's, else the manager's. */
function requestWith(parts: ManagerParts, messages: readonly Message[], prepareOptions: PrepareOptions, loading: LoadedTools | undefined): PrepareRequest {
  const model = prepareOptions.model ?? parts.options.model;
  const tools = loading?.tools ?? prepareOptions.tools ?? parts.options.tools;
  return { messages, model, tools, loading, measureOptions: { ...(tools ? { tools } : {}), model } };
}

/** The request, once the tool loader (when one is set) has answered; synchronous loaders answer without an await. */
function loadRequestTools(parts: ManagerParts, messages: readonly Message[], prepareOptions: PrepareOptions): PrepareRequest | Promise<PrepareRequest> {
  const loading = parts.options.toolLoader ? loadTools(parts.options.toolLoader, messages) : undefined;
  if (loading instanceof Promise) return loading.then((loaded) => requestWith(parts, messages, prepareOptions, loaded));
  return requestWith(parts, messages, prepareOptions, loading);
}

/** Measures the request once for this step, and tells the compaction depth and the breaker (a refill is announced). */
function measureRequest(parts: ManagerParts, request: PrepareRequest, window: WindowDecision): { measurement: Measurement; refill: boolean } {
  const measurement = parts.meter.measure(request.messages, request.measureOptions);
  parts.depth?.observe(measurement.total);
  const observation = parts.breaker.observe(measurement.total, window.threshold);
  if (observation.refill) parts.emit({ type: 'refill', model: request.model, tokens: measurement.total, threshold: window.threshold, step: observation.step });
  return { measurement, refill: observation.refill };
}

/**
 * Compacts only a request over the threshold, with proactive compaction on, over it by an exact count
 * (an estimate alone never compacts), and with the breaker closed.
 */
async function decideToCompact(parts: ManagerParts, request: PrepareRequest, measured: Measurement, threshold: number): Promise<CompactVerdict> {
  if (measured.total <= threshold) return { measurement: measured, decision: 'under-threshold' };
  if (parts.options.proactive === false) return { measurement: measured, decision: 'proactive-off' };
  let measurement = measured;
  if (!measurement.confirmed && measurement.source !== 'exact') {
    measurement = await parts.meter.exceeds(request.messages, threshold, request.measureOptions);
    if (measurement.total <= threshold) return { measurement, decision: 'not-confirmed' };
  }
  if (!parts.breaker.canCompact(measurement.total)) {
    parts.emit({ type: 'breaker-held', tokens: measurement.total, retryAtTokens: parts.breaker.snapshot().retryAtTokens ?? 0 });
    return { measurement, decision: 'breaker-open' };
  }
  return { measurement };
}

/** The window with the target a threshold compaction aims at: set by the compaction depth from the run's growth, when it is on. */
function withCompactionTarget(parts: ManagerParts, window: WindowDecision): WindowDecision {
  return parts.depth ? { ...window, target: parts.depth.target(window.threshold, window.target) } : window;
}

/** Compacts; a prepare of the same transcript while it is compacting shares that compaction (one summarizer call). */
function compactRequest(parts: ManagerParts, request: PrepareRequest, window: WindowDecision, measurement: Measurement, signal: AbortSignal | undefined): Promise<Compaction> {
  const { messages, model, tools } = request;
  return parts.inFlight.share(messages, model, tools, () =>
    compact(parts, messages, { model, tools, target: window.target, threshold: window.threshold, trigger: 'threshold', signal, measurement, estimateConfirmed: true }),
  ).promise;
}

/** The result to send, with its report; remembered as what the next `record()` reports on. */
function reportResult(parts: ManagerParts, request: PrepareRequest, messages: readonly Message[], findings: StepFindings): PrepareResult {
  parts.memory.lastSent = { messages, tools: request.tools };
  const result: PrepareResult = { messages, report: buildPrepareReport(findings, parts.breaker.snapshot()) };
  const { loading } = request;
  return loading ? { ...result, tools: loading.tools, report: { ...result.report, tools: loading.report } } : result;
}

/**
 * One `prepare`: measures the request for the model serving it and compacts when it is over the threshold.
 * Each step is a function above, in the order they run.
 * @throws CtxkitError INVALID_TRANSCRIPT for a malformed transcript; INVALID_ARGUMENT when no window is known for the model
 */
export async function prepare(parts: ManagerParts, messages: readonly Message[], prepareOptions: PrepareOptions = {}): Promise<PrepareResult> {
  validateRequest(parts, messages);
  checkToolOptions('prepare', { tools: prepareOptions.tools });
  const loaded = loadRequestTools(parts, messages, prepareOptions);
  const request = loaded instanceof Promise ? await loaded : loaded;
  const window = await decideWindow(parts, request.model, prepareOptions.signal);
  const { measurement: measured, refill } = measureRequest(parts, request, window);
  const { measurement, decision } = await decideToCompact(parts, request, measured, window.threshold);
  if (decision) return reportResult(parts, request, messages, { model: request.model, window, measurement, decision, refill });
  const aimed = withCompactionTarget(parts, window);
  const compaction = await compactRequest(parts, request, aimed, measurement, prepareOptions.signal);
  if (compaction.applied) parts.depth?.compacted(compaction.after);
  const shrank = compaction.applied && compaction.after < compaction.before;
  return reportResult(parts, request, compaction.messages, { model: request.model, window: aimed, measurement, decision: shrank ? 'compacted' : 'nothing-shrank', refill, compaction });
}
