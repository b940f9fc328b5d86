import type { Message } from '@ctxkit/core';
import { loadTokenizer } from './meter-counter.ts';
import { measure } from './meter-measure.ts';
import { argumentError, type MeterState } from './meter-state.ts';
import type { MeasureOptions, Measurement } from './meter-types.ts';

/**
 * `meter.exceeds`: whether the request is over `threshold`, never on an estimate alone: an unconfirmed
 * over-threshold measurement is taken again exactly, once the tokenizer is loaded.
 * @throws CtxkitError INVALID_ARGUMENT for a bad threshold; TOKENIZER_FAILED when the ranks cannot load
 */
export async function exceeds(
  state: MeterState,
  messages: readonly Message[],
  threshold: number,
  options: Omit<MeasureOptions, 'exact'> = {},
): Promise<Measurement & { exceeds: boolean; threshold: number }> {
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0) {
    throw argumentError(`exceeds: threshold must be a finite number ≥ 0, got ${JSON.stringify(threshold)}`);
  }
  let measurement = measure(state, messages, options);
  if (measurement.total > threshold && !measurement.confirmed && state.tokenizer !== undefined) {
    await loadTokenizer(state);
    measurement = measure(state, messages, { ...options, exact: true });
  }
  return { ...measurement, exceeds: measurement.total > threshold, threshold };
}
