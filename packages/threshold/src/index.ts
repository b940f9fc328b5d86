/**
 * Compaction thresholds: the half-window and budget policies, the compaction target, and the circuit breaker.
 * @packageDocumentation
 */
export {
  type AttemptResult,
  type CompactionAttempt,
  type CompactionSnapshot,
  type CompactionState,
  type CompactionStateOptions,
  createCompactionState,
  type StepObservation,
} from './compaction-state.ts';
export {
  type CompactionThresholdOptions,
  compactionTarget,
  compactionThreshold,
  type ThresholdBound,
  type ThresholdBreakdown,
  thresholdBreakdown,
} from './compaction-threshold.ts';
export { type BudgetPolicyOptions, budgetPolicy, type HalfWindowPolicyOptions, halfWindowPolicy } from './policies.ts';
