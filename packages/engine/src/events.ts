import type { ErrorClassification, ModelLimits } from '@ctxkit/core';
import type { CompactionSnapshot } from '@ctxkit/threshold';

/** What one tier did during a compaction. */
export interface TierReport {
  id: string;
  status: 'applied' | 'skipped' | 'failed';
  /** Why it skipped or failed (or the tier's own detail when it applied). */
  reason?: string;
  /** Tokens of the request before and after this tier, as the engine counted them. */
  before: number;
  after: number;
  /**
   * The tier's own count of its output (`TierOutcome.tokens`), present only when it disagreed with the
   * engine's count; `after` is the engine's figure either way.
   */
  claimedTokens?: number;
  durationMs: number;
}

/** A block put back after a compaction. */
export interface ReinjectedBlock {
  source: string;
  title: string;
  tokens: number;
  /** True when the block was cut to fit the reinjection budget. */
  cut: boolean;
}

/** Events a manager emits, for logs and progress bars. */
export type ManagerEvent =
  | { type: 'window'; model: string; limits: ModelLimits; threshold: number; target: number; reason: string }
  | { type: 'refill'; model: string; tokens: number; threshold: number; step: number }
  | { type: 'compaction-start'; model: string; tokens: number; threshold: number; target: number; trigger: 'threshold' | 'overflow' }
  | { type: 'tier-start'; tier: string; tokens: number }
  | { type: 'tier-progress'; tier: string; message: string; fraction?: number }
  | { type: 'tier-end'; tier: string; report: TierReport }
  | { type: 'reinjected'; blocks: ReinjectedBlock[] }
  | { type: 'reinjection-failed'; source: string; reason: string }
  | { type: 'compaction-end'; model: string; before: number; after: number; shrunk: boolean; durationMs: number }
  | { type: 'breaker-open'; consecutiveFailures: number; retryAtTokens: number }
  | { type: 'breaker-held'; tokens: number; retryAtTokens: number }
  | { type: 'window-learned'; model: string; contextWindow: number; from: ErrorClassification }
  | { type: 'recover'; model: string; action: RecoverAction; classification: ErrorClassification /** Why, when the action is `give-up`. */; reason?: string };

/** What the caller should do after a provider error. */
export type RecoverAction = 'retry' | 'lower-output' | 'fallback' | 'give-up';

/**
 * The circuit breaker and attempt history as plain data (`PrepareReport.breaker`, `manager.state()`):
 * steps and compactions so far, how many in a row did not shrink, whether it is open and at what size it
 * lets a compaction try again, refills, and the last attempt.
 */
export type BreakerSnapshot = CompactionSnapshot;
