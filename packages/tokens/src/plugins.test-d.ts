import { createRegistry, type EstimatorPlugin, type TokenizerPlugin } from '@ctxkit/core';
import { expectTypeOf, test } from 'vitest';
import { heuristicEstimator } from './heuristic-estimator.ts';
import { createMeter } from './meter.ts';
import type { Measurement } from './meter-types.ts';
import { type TiktokenCounter, tiktokenCounter } from './tiktoken-counter.ts';

test('the plugins carry literal ids the registry can key on', () => {
  const registry = createRegistry([tiktokenCounter('o200k_base'), heuristicEstimator()]);
  expectTypeOf(registry.tokenizer('tiktoken-o200k_base')).toEqualTypeOf<TiktokenCounter<'o200k_base'>>();
  expectTypeOf(registry.estimator('heuristic')).toExtend<EstimatorPlugin<'heuristic'>>();
  // @ts-expect-error cl100k_base was not registered
  registry.tokenizer('tiktoken-cl100k_base');
  expectTypeOf(tiktokenCounter('cl100k_base')).toExtend<TokenizerPlugin<'tiktoken-cl100k_base'>>();
  // @ts-expect-error only o200k_base and cl100k_base are counted exactly
  tiktokenCounter('p50k_base');
});

test('measure is synchronous and exceeds is not', () => {
  const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
  expectTypeOf(meter.measure([])).toEqualTypeOf<Measurement>();
  expectTypeOf(meter.exceeds([], 1)).resolves.toExtend<Measurement & { exceeds: boolean }>();
  expectTypeOf<Measurement['source']>().toEqualTypeOf<'reported' | 'estimate' | 'exact'>();
});
