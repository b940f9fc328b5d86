import { CtxkitError } from '@ctxkit/core';

/** The share of the local count below which a provider's reported input tokens are not believed. @default 0.6 */
export const defaultPlausibleUsageRatio = 0.6;

/** A provider figure the meter did not believe, as passed to `MeterOptions.onDistrustedUsage`. */
export interface DistrustedUsage {
  /** What the provider reported. */
  reported: number;
  /** The uncalibrated local count of the same request. */
  local: number;
  /** The figure the meter anchored on instead: the calibrated local count. */
  used: number;
  model: string | undefined;
  reason: string;
}

/**
 * Checks a provider's reported input tokens against the local count of the same request. Tokenizers
 * differ by tens of percent, not by half: a figure under `ratio × local` is a provider that counts
 * only part of the request (Ollama's `prompt_eval_count` skips the cached prefix; proxies that report
 * only the uncached tokens). Such a figure must not anchor the next measurements, or the run overflows.
 * @param ratio the plausible share; 0 believes every figure
 * @throws CtxkitError INVALID_ARGUMENT for a ratio outside [0, 1)
 * @example isPlausibleUsage(1_000, 10_000) // false: a tenth of what the request holds
 */
export function isPlausibleUsage(reported: number, local: number, ratio = defaultPlausibleUsageRatio): boolean {
  checkPlausibleUsageRatio(ratio);
  return reported >= ratio * local;
}

/**
 * Throws unless `ratio` is a number in [0, 1).
 * @throws CtxkitError INVALID_ARGUMENT naming the option
 */
export function checkPlausibleUsageRatio(ratio: number): void {
  if (!(typeof ratio === 'number' && ratio >= 0 && ratio < 1)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message: `createMeter: plausibleUsageRatio must be a number from 0 up to (not including) 1, got ${String(ratio)}` });
  }
}
