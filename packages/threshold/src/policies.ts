import type { ThresholdDecision, ThresholdInput, ThresholdPolicyPlugin } from '@ctxkit/core';
import { type CompactionThresholdOptions, checkFraction, checkTokens, compactionTarget, thresholdBreakdown } from './compaction-threshold.ts';

/** Options for {@link halfWindowPolicy}. */
export interface HalfWindowPolicyOptions extends CompactionThresholdOptions {
  /** The target as a fraction of the threshold. @default 0.6 */
  targetFraction?: number;
}

/**
 * The default threshold policy: {@link compactionThreshold}, with the target at 0.6 × threshold.
 * @example createContextManager({ policy: halfWindowPolicy(), ... })
 */
export function halfWindowPolicy(options: HalfWindowPolicyOptions = {}): ThresholdPolicyPlugin<'half-window'> {
  const { targetFraction = 0.6, ...thresholdOptions } = options;
  return {
    specificationVersion: 'v1',
    kind: 'threshold-policy',
    id: 'half-window',
    decide({ contextWindow, maxOutputTokens }: ThresholdInput): ThresholdDecision {
      const { threshold, reason } = thresholdBreakdown(contextWindow, maxOutputTokens, thresholdOptions);
      return { threshold, target: compactionTarget(threshold, targetFraction), reason };
    },
  };
}

/** Options for {@link budgetPolicy}. */
export interface BudgetPolicyOptions {
  /** The budget as a fraction of the window. @default 0.6 */
  budgetFraction?: number;
  /** Compact when the request reaches this fraction of the budget. @default 0.8 */
  triggerFraction?: number;
  /** The target as a fraction of the threshold. @default 0.6 */
  targetFraction?: number;
  /** Never compact below this many tokens. @default 2_000 */
  floor?: number;
}

/**
 * A budget policy: the run may use `budgetFraction` of the window and compacts at `triggerFraction`
 * of that (a 200,000 window compacts at 96,000). A known output budget still keeps its room:
 * the threshold never exceeds `window − min(maxOutputTokens, window / 2)`.
 */
export function budgetPolicy(options: BudgetPolicyOptions = {}): ThresholdPolicyPlugin<'budget'> {
  const { budgetFraction = 0.6, triggerFraction = 0.8, targetFraction = 0.6, floor = 2_000 } = options;
  checkFraction('budgetFraction', budgetFraction);
  checkFraction('triggerFraction', triggerFraction);
  return {
    specificationVersion: 'v1',
    kind: 'threshold-policy',
    id: 'budget',
    decide({ contextWindow, maxOutputTokens }: ThresholdInput): ThresholdDecision {
      checkTokens('contextWindow', contextWindow);
      checkTokens('maxOutputTokens', maxOutputTokens, true);
      const window = Math.floor(contextWindow);
      const budget = Math.floor(window * budgetFraction);
      const byBudget = Math.floor(budget * triggerFraction);
      const byReserve = maxOutputTokens > 0 ? window - Math.min(Math.floor(maxOutputTokens), Math.floor(window / 2)) : window;
      // As in the half-window rule (decision 0030): the floor never lifts the threshold past the input
      // room beside the answer's reserve, nor past half the window when the output budget is unknown.
      const floorHere = Math.min(floor, byReserve, window - Math.floor(window / 2));
      const format = (tokens: number) => tokens.toLocaleString('en-US');
      const byRules = Math.min(byBudget, byReserve);
      const threshold = Math.max(floorHere, byRules);
      const reason =
        floorHere > byRules
          ? `${triggerFraction * 100}% of a budget of ${budgetFraction * 100}% of the ${format(window)} window is ${format(byRules)}, under the floor of ${format(floorHere)} (${format(floor)}, at most half the window), so the floor applies`
          : byReserve < byBudget
            ? `the output budget leaves ${format(byReserve)} tokens for input, under ${triggerFraction * 100}% of the ${format(budget)} budget`
            : `${triggerFraction * 100}% of a budget of ${budgetFraction * 100}% of the ${format(window)} window`;
      return { threshold, target: compactionTarget(threshold, targetFraction), reason };
    },
  };
}
