import { describe, expect, it } from 'vitest';
import { ciSeed, pickSeed } from './vitest.setup.ts';

describe('pickSeed (fast-check seeding of every test run)', () => {
  it('uses the fixed CI seed in CI, the environment number when given, and rejects junk', () => {
    expect(pickSeed(undefined, true)).toBe(ciSeed);
    expect(pickSeed('', true)).toBe(ciSeed);
    expect(pickSeed('55', true)).toBe(55);
    expect(pickSeed('55', false)).toBe(55);
    expect(() => pickSeed('abc', true)).toThrow('[ctxkit:tools] CTXKIT_FC_SEED must be an integer or "random", got "abc"');
  });

  it('explores with a fresh seed outside CI or when asked for "random"', () => {
    const seeds = new Set(Array.from({ length: 20 }, () => pickSeed(undefined, false)));
    expect(seeds.size).toBeGreaterThan(1);
    expect(Number.isInteger(pickSeed('random', true))).toBe(true);
  });
});
