import { describe, expect, it } from 'vitest';
import { createCompactionState } from './compaction-state.ts';

describe('CompactionState: circuit breaker', () => {
  it('opens after 3 attempts in a row that did not shrink, and stays shut below 25% growth', () => {
    const state = createCompactionState();
    const results = [100_000, 101_000, 102_000].map((size) => {
      state.observe(size, 90_000);
      expect(state.canCompact(size)).toBe(true);
      return state.recordAttempt(size, size);
    });
    expect(results.map((result) => result.opened)).toEqual([false, false, true]);
    expect(state.snapshot()).toMatchObject({ open: true, consecutiveFailures: 3, retryAtTokens: 127_500 });
    expect(state.canCompact(110_000)).toBe(false);
    expect(state.canCompact(127_499)).toBe(false);
    expect(state.canCompact(127_500)).toBe(true);
  });

  it('a success in between resets the count', () => {
    const state = createCompactionState();
    // fail, fail, succeed, fail, fail: the success resets the count to 0, so only the last two count.
    for (const after of [100, 120, 60, 100, 100]) state.recordAttempt(100, after);
    expect(state.snapshot()).toMatchObject({ open: false, consecutiveFailures: 2, attempts: 5, successes: 1 });
  });

  it('after regrowth a failed retry reopens at the new size; a successful one closes it', () => {
    const state = createCompactionState();
    for (let attempt = 0; attempt < 3; attempt++) state.recordAttempt(1_000, 1_000);
    expect(state.canCompact(1_250)).toBe(true);
    expect(state.recordAttempt(1_250, 1_300).opened).toBe(true);
    expect(state.snapshot().retryAtTokens).toBe(1_563);
    expect(state.canCompact(1_500)).toBe(false);
    state.recordAttempt(1_563, 800);
    expect(state.snapshot()).toMatchObject({ open: false, consecutiveFailures: 0 });
    expect(state.snapshot().retryAtTokens).toBeUndefined();
    expect(state.canCompact(800)).toBe(true);
  });

  it('takes its limits as options', () => {
    const state = createCompactionState({ maxFailures: 1, regrowthFactor: 2 });
    expect(state.recordAttempt(500, 500).opened).toBe(true);
    expect(state.canCompact(999)).toBe(false);
    expect(state.canCompact(1_000)).toBe(true);
    expect(() => createCompactionState({ maxFailures: 0 })).toThrow(/maxFailures/);
  });
});

/** A state that saw a step of 120 tokens over a threshold of 100 and compacted it to `after`. */
function compactedOnce(after: number) {
  const state = createCompactionState();
  state.observe(120, 100);
  state.recordAttempt(120, after);
  return state;
}

describe('CompactionState: refill', () => {
  it('records a refill when the transcript is back over the threshold within 2 steps of a compaction', () => {
    const state = compactedOnce(50);
    expect(state.observe(90, 100).refill).toBe(false);
    expect(state.observe(130, 100).refill).toBe(true);
    expect(state.snapshot().refills).toBe(1);
    // counted once per compaction
    expect(state.observe(140, 100).refill).toBe(false);
  });

  it('does not count a return over the threshold after 2 steps', () => {
    const state = compactedOnce(50);
    state.observe(60, 100);
    state.observe(80, 100);
    expect(state.observe(130, 100).refill).toBe(false);
    expect(state.snapshot().refills).toBe(0);
  });

  it('a failed compaction is not followed by refills', () => {
    const state = compactedOnce(120);
    expect(state.observe(125, 100).refill).toBe(false);
  });

  it('snapshots are copies and reset starts over', () => {
    const state = createCompactionState();
    state.recordAttempt(10, 5);
    const snapshot = state.snapshot();
    snapshot.attempts = 99;
    expect(state.snapshot().attempts).toBe(1);
    state.reset();
    expect(state.snapshot()).toEqual({ step: 0, attempts: 0, successes: 0, consecutiveFailures: 0, open: false, refills: 0 });
  });
});

describe('CompactionState: sizes it cannot use', () => {
  it('rejects a NaN, negative or infinite size instead of opening the breaker for good', () => {
    const state = createCompactionState();
    for (const [before, after] of [
      [Number.NaN, 10],
      [100, Number.NaN],
      [-1, 0],
      [Number.POSITIVE_INFINITY, 5],
    ] as const) {
      expect(() => state.recordAttempt(before, after)).toThrow(/\[ctxkit:threshold\] recordAttempt: (before|after) must be a finite number of zero or more/);
    }
    expect(() => state.observe(Number.NaN, 100)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => state.observe(100, -1)).toThrow(/observe: threshold/);
    expect(() => state.canCompact(Number.NaN)).toThrow(/canCompact: tokens/);
    expect(state.snapshot()).toMatchObject({ step: 0, attempts: 0, open: false });
    expect(state.canCompact(100)).toBe(true);
  });
});
