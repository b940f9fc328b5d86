import { CtxkitError } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { compactionTarget, compactionThreshold, thresholdBreakdown } from './compaction-threshold.ts';

describe('compactionThreshold (DESIGN.md §6)', () => {
  it.each([
    [200_000, 0, 100_000],
    [2_000_000, 0, 128_000],
    [32_000, 0, 16_000],
    [272_000, 256_000, 128_000],
    [1_000_000, 500_000, 128_000],
    [4_096, 0, 2_000],
    [128_000, 4_096, 64_000],
    [16_000, 12_000, 8_000],
    [10_000, 0, 2_000],
  ])('window %i with max output %i compacts at %i', (window, maxOutput, expected) => {
    expect(compactionThreshold(window, maxOutput)).toBe(expected);
  });

  it('keeps room for a large answer: the reserve bounds the threshold', () => {
    // 100K window, 60K output: reserve is min(60K, 50K) = 50K, so input gets at most 50K; fraction gives 50K too.
    expect(thresholdBreakdown(100_000, 60_000)).toMatchObject({ threshold: 50_000, reserved: 50_000, byReserve: 50_000 });
    // 20K window with the default 8,192 reserve: 11,808 left for input is more than the 10,000 fraction.
    expect(thresholdBreakdown(20_000).bound).toBe('fraction');
    // 12K window: fraction 6,000, reserve leaves 3,808: the reserve decides.
    expect(thresholdBreakdown(12_000)).toMatchObject({ threshold: 3_808, bound: 'reserve' });
  });

  it('says which bound decided it', () => {
    expect(thresholdBreakdown(2_000_000).bound).toBe('cap');
    expect(thresholdBreakdown(2_000_000).reason).toContain('capped at 256,000');
    expect(thresholdBreakdown(4_096).bound).toBe('floor');
    expect(thresholdBreakdown(200_000).bound).toBe('fraction');
  });

  it('takes fraction, cap, floor and default reserve as options', () => {
    expect(compactionThreshold(200_000, 0, { fraction: 0.75 })).toBe(150_000);
    expect(compactionThreshold(600_000, 0, { windowCap: 400_000 })).toBe(200_000);
    expect(compactionThreshold(4_096, 0, { floor: 1_000 })).toBe(1_000);
    expect(compactionThreshold(20_000, 0, { defaultReserve: 16_000 })).toBe(4_000);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects the window %s with a clear error', (window) => {
    expect(() => compactionThreshold(window)).toThrow(/\[ctxkit:threshold\] contextWindow must be a finite number above zero/);
    try {
      compactionThreshold(window);
    } catch (error) {
      expect(CtxkitError.isInstance(error, 'INVALID_ARGUMENT')).toBe(true);
    }
  });

  it('rejects a negative output budget and a fraction outside (0, 1]', () => {
    expect(() => compactionThreshold(100_000, -5)).toThrow(/maxOutputTokens/);
    expect(() => compactionThreshold(100_000, 0, { fraction: 1.5 })).toThrow(/fraction must be in \(0, 1\]/);
  });

  it('puts the target at 0.6 × the threshold by default', () => {
    expect(compactionTarget(100_000)).toBe(60_000);
    expect(compactionTarget(100_000, 0.5)).toBe(50_000);
  });
});
