import { CtxkitError } from '@ctxkit/core';

/** Options for {@link compactionThreshold}; the defaults are DESIGN.md §6. */
export interface CompactionThresholdOptions {
  /** Compact at this fraction of the (capped) window. @default 0.5 */
  fraction?: number;
  /** Windows larger than this count as this large, so a 2M window compacts at 128K. @default 256_000 */
  windowCap?: number;
  /** Never compact below this many tokens, unless the window minus the reserve holds fewer. @default 2_000 */
  floor?: number;
  /** Room kept for the answer when the output budget is unknown (0), at most half the window. @default 8_192 */
  defaultReserve?: number;
}

/** Which bound decided a threshold. */
export type ThresholdBound = 'fraction' | 'cap' | 'reserve' | 'floor';

/** A threshold with the figures behind it. */
export interface ThresholdBreakdown {
  threshold: number;
  /** `floor(min(window, windowCap) × fraction)`. */
  byFraction: number;
  /** Tokens kept for the answer: `min(maxOutputTokens or the default reserve, floor(window / 2))`. */
  reserved: number;
  /** `window − reserved`: the most the input may take. */
  byReserve: number;
  bound: ThresholdBound;
  /** One line a person can read: which bound decided it and why. */
  reason: string;
}

const source = 'threshold';

/** Throws unless `value` is a finite number above zero (or at least zero, where zero is allowed). */
export function checkTokens(name: string, value: number, allowZero = false): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source,
      message: `${name} must be a finite number ${allowZero ? 'of zero or more' : 'above zero'}, got ${typeof value === 'string' ? `the string ${JSON.stringify(value)}` : String(value)}`,
    });
  }
}

/** Throws unless `value` is a fraction in (0, 1]. */
export function checkFraction(name: string, value: number): void {
  if (!(typeof value === 'number' && value > 0 && value <= 1)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `${name} must be in (0, 1], got ${String(value)}` });
  }
}

const format = (tokens: number) => tokens.toLocaleString('en-US');

/**
 * The half-window threshold with the figures behind it and which bound decided it (DESIGN.md §6, with
 * decision 0030 for small windows): `reserved = min(maxOutputTokens || defaultReserve, floor(window / 2))`,
 * `threshold = max(min(floor, window − reserved), min(floor(min(window, cap) × fraction), window − reserved))`.
 * Never above `window − reserved`; non-decreasing in the window, non-increasing in the output budget; an
 * unknown budget (0) gives the threshold of a budget of `defaultReserve`.
 * @throws CtxkitError INVALID_ARGUMENT for a non-finite, zero or negative window, or a negative output budget
 */
export function thresholdBreakdown(contextWindow: number, maxOutputTokens = 0, options: CompactionThresholdOptions = {}): ThresholdBreakdown {
  const { fraction = 0.5, windowCap = 256_000, floor = 2_000, defaultReserve = 8_192 } = options;
  checkTokens('contextWindow', contextWindow);
  checkTokens('maxOutputTokens', maxOutputTokens, true);
  checkFraction('fraction', fraction);
  checkTokens('windowCap', windowCap);
  checkTokens('floor', floor, true);
  checkTokens('defaultReserve', defaultReserve, true);
  const window = Math.floor(contextWindow);
  const capped = window > windowCap;
  const byFraction = Math.floor(Math.min(window, windowCap) * fraction);
  // An unknown output budget counts as the default reserve, capped at half the window as a known one
  // is: knowing less never gives a lower threshold than knowing the budget is the default (decision 0030).
  const requested = maxOutputTokens > 0 ? Math.floor(maxOutputTokens) : defaultReserve;
  const reserved = Math.min(requested, Math.floor(window / 2));
  const byReserve = window - reserved;
  // The floor never lifts the threshold past what the window holds beside the reserve.
  const floorHere = Math.min(floor, byReserve);
  const byRules = Math.min(byFraction, byReserve);
  const threshold = Math.max(floorHere, byRules);
  // A max output the window cannot hold beside any input is capped; the reason says so rather than
  // printing a reserve the user did not ask for.
  const reserveNote = maxOutputTokens <= 0 ? ' (default reserve)' : requested > reserved ? ` (the ${format(requested)} max output, capped at half the window)` : '';
  let bound: ThresholdBound;
  let reason: string;
  if (floorHere > byRules) {
    bound = 'floor';
    reason =
      floorHere < floor
        ? `the ${format(window)} window leaves only ${format(byReserve)} tokens for input beside ${format(reserved)} for the answer${reserveNote}, so the ${format(floor)} floor is cut to ${format(floorHere)}`
        : `the ${format(window)} window leaves less than ${format(floor)} tokens after the rules, so the floor of ${format(floor)} applies`;
  } else if (byReserve < byFraction) {
    bound = 'reserve';
    reason = `${format(reserved)} tokens are kept for the answer${reserveNote}, leaving ${format(byReserve)} of ${format(window)} for input`;
  } else if (capped) {
    bound = 'cap';
    reason = `the ${format(window)} window is capped at ${format(windowCap)}; ${fraction * 100}% of that is ${format(byFraction)}`;
  } else {
    bound = 'fraction';
    reason = `${fraction * 100}% of the ${format(window)} window, with ${format(reserved)} tokens still free for the answer${reserveNote}`;
  }
  return { threshold, byFraction, reserved, byReserve, bound, reason };
}

/**
 * The token count above which a request is compacted: half the window, the window capped at 256K,
 * always leaving room for the answer, never below 2K unless the window cannot hold 2K beside the
 * answer's reserve (DESIGN.md §6, decision 0030).
 * @param contextWindow - the window of the model serving the request
 * @param maxOutputTokens - the output budget of the request; 0 when unknown (a default reserve applies)
 * @throws CtxkitError INVALID_ARGUMENT for a non-finite, zero or negative window
 * @example
 * ```ts
 * compactionThreshold(200_000);          // 100_000
 * compactionThreshold(272_000, 256_000); // 128_000: a large output budget does not eat the input budget
 * ```
 */
export function compactionThreshold(contextWindow: number, maxOutputTokens = 0, options: CompactionThresholdOptions = {}): number {
  return thresholdBreakdown(contextWindow, maxOutputTokens, options).threshold;
}

/**
 * Where a compaction aims: below the threshold, so the next step does not compact again.
 * @default fraction 0.6
 */
export function compactionTarget(threshold: number, fraction = 0.6): number {
  checkTokens('threshold', threshold);
  checkFraction('target fraction', fraction);
  return Math.floor(threshold * fraction);
}
