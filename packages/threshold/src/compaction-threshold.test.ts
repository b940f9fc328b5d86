import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactionTarget, compactionThreshold, type ThresholdBound, thresholdBreakdown } from './compaction-threshold.ts';

describe('compactionThreshold (DESIGN.md §6)', () => {
  // [window, max output, threshold], grouped by the bound thresholdBreakdown says decided it.
  const decided: { rule: string; bound: ThresholdBound; cases: [number, number, number][] }[] = [
    {
      rule: 'half the window',
      bound: 'fraction',
      cases: [
        [200_000, 0, 100_000],
        [32_000, 0, 16_000],
        [128_000, 4_096, 64_000],
        [16_000, 12_000, 8_000],
        [10_000, 0, 5_000],
      ],
    },
    {
      rule: 'half a window too small for the 2,000 floor',
      bound: 'fraction',
      cases: [
        [4_096, 0, 2_048],
        [8_192, 0, 4_096],
        [8_192, 8_192, 4_096],
        [1_000, 0, 500],
      ],
    },
    {
      rule: 'half the window capped at 256,000',
      bound: 'cap',
      cases: [
        [2_000_000, 0, 128_000],
        [272_000, 256_000, 128_000],
        [1_000_000, 500_000, 128_000],
      ],
    },
    { rule: 'the 2,000 floor', bound: 'floor', cases: [[3_000, 100, 2_000]] },
  ];
  it.each(decided)('$rule gives the threshold of each window and max output', ({ bound, cases }) => {
    for (const [window, maxOutput, expected] of cases) {
      expect(compactionThreshold(window, maxOutput), `window ${window} with max output ${maxOutput}`).toBe(expected);
      expect(thresholdBreakdown(window, maxOutput).bound, `window ${window} with max output ${maxOutput}`).toBe(bound);
    }
  });

  it('says when a known max output is capped at half the window', () => {
    expect(thresholdBreakdown(8_192, 10_000).reason).toBe('50% of the 8,192 window, with 4,096 tokens still free for the answer (the 10,000 max output, capped at half the window)');
    expect(thresholdBreakdown(8_192, 1_000).reason).not.toContain('capped');
  });

  it('keeps room for a large answer: the reserve bounds the threshold', () => {
    // 100K window, 60K output: reserve is min(60K, 50K) = 50K, so input gets at most 50K; fraction gives 50K too.
    expect(thresholdBreakdown(100_000, 60_000)).toMatchObject({ threshold: 50_000, reserved: 50_000, byReserve: 50_000 });
    // 20K window with the default 8,192 reserve: 11,808 left for input is more than the 10,000 fraction.
    expect(thresholdBreakdown(20_000).bound).toBe('fraction');
    // 12K window, unknown output: the default reserve is capped at half the window as a known one is.
    expect(thresholdBreakdown(12_000)).toMatchObject({ threshold: 6_000, reserved: 6_000, bound: 'fraction' });
    // Above half the window (fraction 0.75) the reserve decides.
    expect(thresholdBreakdown(20_000, 0, { fraction: 0.75 })).toMatchObject({ threshold: 11_808, bound: 'reserve' });
  });

  it('says which bound decided it', () => {
    expect(thresholdBreakdown(2_000_000).bound).toBe('cap');
    expect(thresholdBreakdown(2_000_000).reason).toContain('capped at 256,000');
    expect(thresholdBreakdown(3_000, 100)).toMatchObject({ threshold: 2_000, bound: 'floor' });
    expect(thresholdBreakdown(2_100, 300)).toMatchObject({ threshold: 1_800, bound: 'floor', reason: expect.stringContaining('the 2,000 floor is cut to 1,800') });
    expect(thresholdBreakdown(200_000).bound).toBe('fraction');
  });

  it('takes fraction, cap, floor and default reserve as options', () => {
    expect(compactionThreshold(200_000, 0, { fraction: 0.75 })).toBe(150_000);
    expect(compactionThreshold(600_000, 0, { windowCap: 400_000 })).toBe(200_000);
    expect(compactionThreshold(4_096, 100, { floor: 3_000 })).toBe(3_000);
    expect(compactionThreshold(20_000, 0, { fraction: 0.9, defaultReserve: 6_000 })).toBe(14_000);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects the window %s with a clear error', (window) => {
    expect(() => compactionThreshold(window)).toThrow(/\[ctxkit:threshold\] contextWindow must be a finite number above zero/);
    expect(() => compactionThreshold(window)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
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

describe('the small-window rule is coherent (decision 0030), on generated windows and budgets', () => {
  const window = fc.integer({ min: 1, max: 3_000_000 });
  const output = fc.integer({ min: 0, max: 3_000_000 });

  it('never exceeds what the window holds beside the answer reserve', () => {
    fc.assert(
      fc.property(window, output, (contextWindow, maxOutputTokens) => {
        const { threshold, reserved } = thresholdBreakdown(contextWindow, maxOutputTokens);
        return threshold <= contextWindow - reserved && threshold >= 0;
      }),
    );
  });

  it('grows with the window and shrinks with the output budget', () => {
    fc.assert(
      fc.property(window, window, output, (a, b, maxOutputTokens) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        return compactionThreshold(small, maxOutputTokens) <= compactionThreshold(large, maxOutputTokens);
      }),
    );
    fc.assert(
      fc.property(window, output, output, (contextWindow, a, b) => {
        const [less, more] = a <= b ? [a, b] : [b, a];
        return less === 0 || compactionThreshold(contextWindow, less) >= compactionThreshold(contextWindow, more);
      }),
    );
  });

  it('an unknown output budget is the default reserve: knowing less never gives a lower threshold than knowing it is 8,192', () => {
    fc.assert(fc.property(window, (contextWindow) => compactionThreshold(contextWindow, 0) === compactionThreshold(contextWindow, 8_192)));
  });

  it('keeps 2,000 as the floor wherever the window can hold it beside the reserve', () => {
    fc.assert(
      fc.property(window, output, (contextWindow, maxOutputTokens) => {
        const { threshold, byReserve } = thresholdBreakdown(contextWindow, maxOutputTokens);
        return threshold >= Math.min(2_000, byReserve);
      }),
    );
  });

  it('leaves the numbers of DESIGN.md §6 for windows of 16,384 and up unchanged', () => {
    // the rule as DESIGN.md §6 writes it
    const design = (contextWindow: number, maxOutputTokens: number) => {
      const reserved = maxOutputTokens > 0 ? Math.min(maxOutputTokens, Math.floor(contextWindow / 2)) : 8_192;
      return Math.max(2_000, Math.min(Math.floor(Math.min(contextWindow, 256_000) * 0.5), contextWindow - reserved));
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 16_384, max: 3_000_000 }),
        output,
        (contextWindow, maxOutputTokens) => compactionThreshold(contextWindow, maxOutputTokens) === design(contextWindow, maxOutputTokens),
      ),
    );
  });
});

describe('compactionThreshold: a window given as text', () => {
  it('says it got a string, not a number that looks valid', () => {
    expect(() => compactionThreshold('1000' as unknown as number)).toThrow('contextWindow must be a finite number above zero, got the string "1000"');
  });
});
