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
   * time ran out (counted as a failure); `skipped`: not offered to the tiers this time; `unused`: no tier called it.
   */
  status: 'answered' | 'failed' | 'timed-out' | 'skipped' | 'unused';
  calls: number;
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

/**
 * Bounds the time a summarizer may take in one compaction and skips one that never answers. A
 * summarizer that hangs would otherwise block every compaction for each tier's own timeout (about
 * 180 s with tier 0 and trim) and be called again at the next one.
 * @throws CtxkitError INVALID_ARGUMENT for a timeout that is not above zero or a negative skip count
 */
export function createSummarizerGuard(options: SummarizerGuardOptions = {}) {
  const { compactionTimeoutMs = 90_000, skipCompactions = 3 } = options;
  if (!(compactionTimeoutMs > 0)) throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `summarizerGuard.compactionTimeoutMs must be above zero (or Infinity), got ${String(compactionTimeoutMs)}` });
  if (!(Number.isInteger(skipCompactions) && skipCompactions >= 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `summarizerGuard.skipCompactions must be an integer from 0 up, got ${String(skipCompactions)}` });
  }
  let skipLeft = 0;
  let failedInARow = 0;
  let lastProblem = '';

  return {
    /** Starts a compaction with this summarizer (or none). */
    begin(summarizer: SummarizerPlugin | undefined): GuardedCompaction {
      if (!summarizer) return { summarizer: undefined, finish: () => undefined };
      if (skipLeft > 0) {
        skipLeft -= 1;
        const reason = `skipped: ${lastProblem}; tried again ${skipLeft === 0 ? 'at the next compaction' : `after ${skipLeft} more compaction${skipLeft === 1 ? '' : 's'}`}`;
        return { summarizer: undefined, finish: () => ({ id: summarizer.id, status: 'skipped', calls: 0, failures: 0, reason }) };
      }
      const deadline = Number.isFinite(compactionTimeoutMs) ? Date.now() + compactionTimeoutMs : Number.POSITIVE_INFINITY;
      const timers = new Set<ReturnType<typeof setTimeout>>();
      let calls = 0;
      let failures = 0;
      let timedOut = false;
      const timeoutError = () =>
        new CtxkitError({ code: 'TIMEOUT', source, message: `summarizer "${summarizer.id}" did not answer within the compaction's ${compactionTimeoutMs.toLocaleString('en-US')} ms` });

      const guarded: SummarizerPlugin = {
        ...summarizer,
        summarize(request: SummarizeRequest): Promise<string> {
          calls += 1;
          const remaining = deadline - Date.now();
          if (timedOut || remaining <= 0) {
            timedOut = true;
            failures += 1;
            return Promise.reject(timeoutError());
          }
          const controller = new AbortController();
          const onAbort = () => controller.abort(request.signal?.reason);
          request.signal?.addEventListener('abort', onAbort, { once: true });
          if (request.signal?.aborted) controller.abort(request.signal.reason);
          return new Promise<string>((resolve, reject) => {
            const timer = Number.isFinite(remaining)
              ? setTimeout(() => {
                  timedOut = true;
                  const error = timeoutError();
                  controller.abort(error);
                  reject(error);
                }, remaining)
              : undefined;
            if (timer !== undefined) timers.add(timer);
            const settle = () => {
              if (timer !== undefined) {
                clearTimeout(timer);
                timers.delete(timer);
              }
              request.signal?.removeEventListener('abort', onAbort);
            };
            Promise.resolve()
              .then(() => summarizer.summarize({ ...request, signal: controller.signal }))
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
          }).catch((error: unknown) => {
            failures += 1;
            throw error;
          });
        },
      };

      return {
        summarizer: guarded,
        finish(): SummarizerReport {
          for (const timer of timers) clearTimeout(timer);
          timers.clear();
          if (timedOut) {
            failedInARow = 0;
            skipLeft = skipCompactions;
            lastProblem = `summarizer "${summarizer.id}" timed out after ${compactionTimeoutMs.toLocaleString('en-US')} ms in an earlier compaction`;
            return { id: summarizer.id, status: 'timed-out', calls, failures, reason: `${timeoutError().message.replace(/^\[ctxkit:engine\] /, '')}; skipped for the next ${skipCompactions} compaction${skipCompactions === 1 ? '' : 's'}` };
          }
          if (calls === 0) return { id: summarizer.id, status: 'unused', calls, failures };
          if (failures === calls) {
            failedInARow += 1;
            if (failedInARow >= failuresToSkip) {
              failedInARow = 0;
              skipLeft = skipCompactions;
              lastProblem = `summarizer "${summarizer.id}" failed in ${failuresToSkip} compactions in a row`;
              return { id: summarizer.id, status: 'failed', calls, failures, reason: `every call failed, ${failuresToSkip} compactions in a row; skipped for the next ${skipCompactions}` };
            }
            return { id: summarizer.id, status: 'failed', calls, failures, reason: 'every call failed' };
          }
          failedInARow = 0;
          return { id: summarizer.id, status: 'answered', calls, failures };
        },
      };
    },
  };
}
