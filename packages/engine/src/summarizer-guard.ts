import { CtxkitError, type SummarizeRequest, type SummarizerPlugin } from '@ctxkit/core';

/** Options for the summarizer's time bound (`ContextManagerOptions.summarizerGuard`). */
export interface SummarizerGuardOptions {
  /**
   * Time every summarizer call of one compaction may take together; past it the calls are aborted
   * and answered with a timeout, so the tiers fall through to the model-free ones. `Infinity` for none.
   * @default 90_000
   */
  compactionTimeoutMs?: number;
  /** Compactions that skip a summarizer after it timed out (or failed 3 compactions in a row), before it is tried again. @default 3 */
  skipCompactions?: number;
}

/** What the summarizer did in one compaction, in `PrepareReport.summarizer`. */
export interface SummarizerReport {
  id: string;
  /**
   * `answered`: at least one call returned; `failed`: every call threw; `timed-out`: the compaction's
   * time ran out, or a call ran past its own limit (the tier's `timeoutMs`), after which no tier of the
   * compaction asks it again (counted as a failure); `skipped`: not offered to the tiers this time; `unused`: no tier called it.
   */
  status: 'answered' | 'failed' | 'timed-out' | 'skipped' | 'unused';
  /** Calls that reached the summarizer; a tier that asks after the compaction's time ran out is answered by the guard, and not counted. */
  calls: number;
  /** Of those calls, the ones that threw or timed out. */
  failures: number;
  /** Why it timed out, failed or was skipped, and when it is tried again. */
  reason?: string;
}

/** One compaction's view of the guarded summarizer. */
export interface GuardedCompaction {
  /** The summarizer to hand the tiers: undefined while it is skipped. */
  summarizer: SummarizerPlugin | undefined;
  /** Ends the compaction: clears its timer, updates the skip state, and says what happened. */
  finish(): SummarizerReport | undefined;
}

const source = 'engine';
const failuresToSkip = 3;

/** The guard's settings, checked. */
interface GuardSettings {
  readonly compactionTimeoutMs: number;
  readonly skipCompactions: number;
}

/** What the guard carries from one compaction to the next. */
interface SkipState {
  /** Compactions left that do not offer the summarizer. */
  skipLeft: number;
  /** Compactions in a row in which every call failed. */
  failedInARow: number;
  /** Why the summarizer is skipped, for the `skipped` report. */
  lastProblem: string;
}

/** One compaction's calls to the summarizer: its shared deadline, the running timers, and the tallies. */
interface CompactionCalls {
  readonly summarizer: SummarizerPlugin;
  readonly settings: GuardSettings;
  /** When the compaction's summarizer time runs out (epoch ms), or Infinity. */
  readonly deadline: number;
  readonly timers: Set<ReturnType<typeof setTimeout>>;
  calls: number;
  failures: number;
  /** The compaction's own time ran out. */
  timedOut: boolean;
  /** A call timed out by its own limit (the tier's `timeoutMs`, the plugin's): why, said as the call said it. */
  callTimedOut?: string;
}

/**
 * Whether an error or abort reason says a time limit ran out: a `TimeoutError` (what `AbortSignal.timeout`
 * and the tiers abort with) or a ctxkit error coded `TIMEOUT` (a provider's summarizer past its `timeoutMs`).
 */
function isTimeout(reason: unknown): boolean {
  if (CtxkitError.isInstance(reason)) return reason.code === 'TIMEOUT';
  return (reason as { name?: unknown } | null)?.name === 'TimeoutError';
}

function describeTimeout(reason: unknown): string {
  const message = (reason as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? message.replace(/^\[ctxkit:[^\]]+\] /, '') : 'timed out';
}

function timeoutError(calls: CompactionCalls): CtxkitError {
  return new CtxkitError({
    code: 'TIMEOUT',
    source,
    message: `summarizer "${calls.summarizer.id}" did not answer within the compaction's ${calls.settings.compactionTimeoutMs.toLocaleString('en-US')} ms`,
  });
}

/** A compaction that does not offer the summarizer, because an earlier one timed out or kept failing. */
function skippedCompaction(summarizer: SummarizerPlugin, state: SkipState): GuardedCompaction {
  state.skipLeft -= 1;
  const next = state.skipLeft === 0 ? 'at the next compaction' : `after ${state.skipLeft} more compaction${state.skipLeft === 1 ? '' : 's'}`;
  const reason = `skipped: ${state.lastProblem}; tried again ${next}`;
  return { summarizer: undefined, finish: () => ({ id: summarizer.id, status: 'skipped', calls: 0, failures: 0, reason }) };
}

/** Runs one summarizer call with the time left, aborting it (and answering with a timeout) when that runs out. */
function callWithinDeadline(calls: CompactionCalls, request: SummarizeRequest, remaining: number): Promise<string> {
  const controller = new AbortController();
  return new Promise<string>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      if (timer !== undefined) {
        clearTimeout(timer);
        calls.timers.delete(timer);
      }
      request.signal?.removeEventListener('abort', onAbort);
    };
    // The caller gave up (a tier's own time limit, or an abort): the call ends with its reason, which
    // guardedSummarize counts as a failure, and a timeout there keeps the summarizer out of this compaction.
    const onAbort = () => {
      settle();
      controller.abort(request.signal?.reason);
      reject(request.signal?.reason);
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(remaining)) {
      timer = setTimeout(() => {
        calls.timedOut = true;
        const error = timeoutError(calls);
        controller.abort(error);
        reject(error);
      }, remaining);
      calls.timers.add(timer);
    }
    Promise.resolve()
      .then(() => calls.summarizer.summarize({ ...request, signal: controller.signal }))
      .then(
        (text) => {
          settle();
          resolve(text);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
  });
}

/**
 * The guarded `summarize`: past the deadline it answers a tier with a timeout itself (the summarizer is not
 * called, so nothing is counted); otherwise it counts the call, and a failure when it throws.
 */
function guardedSummarize(calls: CompactionCalls, request: SummarizeRequest): Promise<string> {
  const remaining = calls.deadline - Date.now();
  if (calls.timedOut || remaining <= 0) {
    calls.timedOut = true;
    return Promise.reject(timeoutError(calls));
  }
  if (calls.callTimedOut !== undefined) {
    // One call already ran out of time in this compaction: a later tier would wait its own limit again.
    const message = `summarizer "${calls.summarizer.id}" is not asked again in this compaction: it timed out (${calls.callTimedOut})`;
    return Promise.reject(new CtxkitError({ code: 'TIMEOUT', source, message }));
  }
  // Aborted before it was asked: the summarizer is not called, and the call is not counted.
  if (request.signal?.aborted) return Promise.reject(request.signal.reason);
  calls.calls += 1;
  return callWithinDeadline(calls, request, remaining).catch((error: unknown) => {
    calls.failures += 1;
    if (isTimeout(error)) calls.callTimedOut ??= describeTimeout(error);
    throw error;
  });
}

/** Ends a compaction: clears its timers, updates the skip state, and says what the summarizer did. */
function finishCompaction(calls: CompactionCalls, state: SkipState): SummarizerReport {
  for (const timer of calls.timers) clearTimeout(timer);
  calls.timers.clear();
  const { summarizer, settings } = calls;
  const report = (status: SummarizerReport['status'], reason?: string): SummarizerReport => ({
    id: summarizer.id,
    status,
    calls: calls.calls,
    failures: calls.failures,
    ...(reason === undefined ? {} : { reason }),
  });
  const skipFromNow = (problem: string) => {
    state.failedInARow = 0;
    state.skipLeft = settings.skipCompactions;
    state.lastProblem = problem;
  };
  const skipped = `skipped for the next ${settings.skipCompactions} compaction${settings.skipCompactions === 1 ? '' : 's'}`;
  if (calls.timedOut) {
    skipFromNow(`summarizer "${summarizer.id}" timed out after ${settings.compactionTimeoutMs.toLocaleString('en-US')} ms in an earlier compaction`);
    return report('timed-out', `${describeTimeout(timeoutError(calls))}; ${skipped}`);
  }
  if (calls.callTimedOut !== undefined) {
    skipFromNow(`summarizer "${summarizer.id}" timed out in an earlier compaction (${calls.callTimedOut})`);
    return report('timed-out', `summarizer "${summarizer.id}" timed out (${calls.callTimedOut}); not asked again in this compaction, ${skipped}`);
  }
  if (calls.calls === 0) return report('unused');
  if (calls.failures !== calls.calls) {
    state.failedInARow = 0;
    return report('answered');
  }
  state.failedInARow += 1;
  if (state.failedInARow < failuresToSkip) return report('failed', 'every call failed');
  skipFromNow(`summarizer "${summarizer.id}" failed in ${failuresToSkip} compactions in a row`);
  return report('failed', `every call failed, ${failuresToSkip} compactions in a row; skipped for the next ${settings.skipCompactions}`);
}

/** The options, checked. @throws CtxkitError INVALID_ARGUMENT */
function guardSettings(options: SummarizerGuardOptions): GuardSettings {
  const { compactionTimeoutMs = 90_000, skipCompactions = 3 } = options;
  if (!(compactionTimeoutMs > 0))
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `summarizerGuard.compactionTimeoutMs must be above zero (or Infinity), got ${String(compactionTimeoutMs)}` });
  if (!(Number.isInteger(skipCompactions) && skipCompactions >= 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `summarizerGuard.skipCompactions must be an integer from 0 up, got ${String(skipCompactions)}` });
  }
  return { compactionTimeoutMs, skipCompactions };
}

/**
 * Bounds the time a summarizer may take in one compaction and skips one that never answers. A
 * summarizer that hangs would otherwise block every compaction for each tier's own timeout (about
 * 180 s with tier 0 and trim) and be called again at the next one.
 * @throws CtxkitError INVALID_ARGUMENT for a timeout that is not above zero or a negative skip count
 */
export function createSummarizerGuard(options: SummarizerGuardOptions = {}) {
  const settings = guardSettings(options);
  const state: SkipState = { skipLeft: 0, failedInARow: 0, lastProblem: '' };
  return {
    /** Starts a compaction with this summarizer (or none). */
    begin(summarizer: SummarizerPlugin | undefined): GuardedCompaction {
      if (!summarizer) return { summarizer: undefined, finish: () => undefined };
      if (state.skipLeft > 0) return skippedCompaction(summarizer, state);
      const deadline = Number.isFinite(settings.compactionTimeoutMs) ? Date.now() + settings.compactionTimeoutMs : Number.POSITIVE_INFINITY;
      const calls: CompactionCalls = { summarizer, settings, deadline, timers: new Set(), calls: 0, failures: 0, timedOut: false };
      return {
        summarizer: { ...summarizer, summarize: (request: SummarizeRequest) => guardedSummarize(calls, request) },
        finish: () => finishCompaction(calls, state),
      };
    },
  };
}
