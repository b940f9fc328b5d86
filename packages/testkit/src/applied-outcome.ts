import type { TierOutcome } from '@ctxkit/core';

/** A tier outcome that changed the transcript. */
export type AppliedOutcome = Extract<TierOutcome, { status: 'applied' }>;

/**
 * The outcome, when the tier applied; otherwise throws with the status and the tier's reason, so a test
 * that expected a compaction fails saying why there was none.
 * @throws Error when the outcome is `skipped` or `failed`
 * @example const { messages, detail } = appliedOutcome(await trimTier().apply(transcript, context));
 */
export function appliedOutcome(outcome: TierOutcome): AppliedOutcome {
  if (outcome.status !== 'applied') throw new Error(`expected applied, got ${outcome.status}: ${outcome.reason}`);
  return outcome;
}
