import { checkTokens } from './compaction-threshold.ts';

/** Options for {@link createCompactionState}. */
export interface CompactionStateOptions {
  /** Consecutive attempts that did not shrink the transcript before the breaker opens. @default 3 */
  maxFailures?: number;
  /** Once open, try again when the transcript is this many times its size at the last failed attempt. @default 1.25 */
  regrowthFactor?: number;
  /** A successful compaction followed by a measurement over the threshold within this many steps is a refill. @default 2 */
  refillSteps?: number;
}

/** One compaction attempt: the size of the request before and after. */
export interface CompactionAttempt {
  before: number;
  after: number;
  shrunk: boolean;
  step: number;
}

/** The breaker and history, as plain data (persist it, log it, show it). */
export interface CompactionSnapshot {
  /** Steps observed so far. */
  step: number;
  attempts: number;
  successes: number;
  consecutiveFailures: number;
  /** True while the breaker holds compaction back. */
  open: boolean;
  /** While open: the size at which compaction is tried again. */
  retryAtTokens?: number;
  refills: number;
  lastAttempt?: CompactionAttempt;
  /** Step of the last compaction that shrank the transcript. */
  lastSuccessStep?: number;
}

/** What {@link CompactionState.observe} found for this step. */
export interface StepObservation {
  step: number;
  /** The transcript is back over the threshold within `refillSteps` of a successful compaction. */
  refill: boolean;
}

/** What {@link CompactionState.recordAttempt} changed. */
export interface AttemptResult {
  attempt: CompactionAttempt;
  /** The breaker opened with this attempt. */
  opened: boolean;
}

/**
 * Remembers compaction attempts for one run: a circuit breaker that stops trying after 3 attempts in a
 * row that did not shrink the transcript, and tries again once it has grown 25% past its size at the last
 * failed attempt; and refill detection (compacted, then back over the threshold within 2 steps).
 */
export interface CompactionState {
  /** Call once per step with the measured size, before deciding to compact. @throws CtxkitError INVALID_ARGUMENT for a size or threshold that is not a finite number ≥ 0 (as do the other methods) */
  observe(tokens: number, threshold: number): StepObservation;
  /** Whether an attempt may be made now, at this size. */
  canCompact(tokens: number): boolean;
  /** Record an attempt's sizes; an attempt that did not end smaller counts as a failure. */
  recordAttempt(before: number, after: number): AttemptResult;
  snapshot(): CompactionSnapshot;
  /** Back to a fresh run. */
  reset(): void;
}

/**
 * Creates the breaker and attempt history for one run.
 * @example
 * ```ts
 * const state = createCompactionState();
 * if (tokens > threshold && state.canCompact(tokens)) state.recordAttempt(tokens, compactedTokens);
 * ```
 */
export function createCompactionState(options: CompactionStateOptions = {}): CompactionState {
  const { maxFailures = 3, regrowthFactor = 1.25, refillSteps = 2 } = options;
  checkTokens('maxFailures', maxFailures);
  checkTokens('regrowthFactor', regrowthFactor);
  checkTokens('refillSteps', refillSteps, true);

  let snapshot: CompactionSnapshot;
  const reset = () => {
    snapshot = { step: 0, attempts: 0, successes: 0, consecutiveFailures: 0, open: false, refills: 0 };
  };
  reset();

  return {
    observe(tokens, threshold) {
      checkTokens('observe: tokens', tokens, true);
      checkTokens('observe: threshold', threshold, true);
      snapshot.step += 1;
      const since = snapshot.lastSuccessStep === undefined ? Number.POSITIVE_INFINITY : snapshot.step - snapshot.lastSuccessStep;
      const refill = since >= 1 && since <= refillSteps && tokens > threshold;
      if (refill) {
        snapshot.refills += 1;
        // One refill per compaction: the next one counts only after another successful compaction.
        delete snapshot.lastSuccessStep;
      }
      return { step: snapshot.step, refill };
    },
    canCompact(tokens) {
      checkTokens('canCompact: tokens', tokens, true);
      return !snapshot.open || (snapshot.retryAtTokens !== undefined && tokens >= snapshot.retryAtTokens);
    },
    recordAttempt(before, after) {
      // A NaN size would open the breaker with a NaN regrowth point that no size ever reaches.
      checkTokens('recordAttempt: before', before, true);
      checkTokens('recordAttempt: after', after, true);
      const attempt: CompactionAttempt = { before, after, shrunk: after < before, step: snapshot.step };
      snapshot.attempts += 1;
      snapshot.lastAttempt = attempt;
      let opened = false;
      if (attempt.shrunk) {
        snapshot.successes += 1;
        snapshot.consecutiveFailures = 0;
        snapshot.open = false;
        delete snapshot.retryAtTokens;
        snapshot.lastSuccessStep = snapshot.step;
      } else {
        snapshot.consecutiveFailures += 1;
        if (snapshot.consecutiveFailures >= maxFailures) {
          // Attempts are only made while closed or at the regrowth point, so this opens (or re-opens) it.
          opened = true;
          snapshot.open = true;
          snapshot.retryAtTokens = Math.ceil(before * regrowthFactor);
        }
      }
      return { attempt, opened };
    },
    snapshot: () => structuredClone(snapshot),
    reset,
  };
}
