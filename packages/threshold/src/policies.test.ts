import { createRegistry } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { budgetPolicy, halfWindowPolicy } from './policies.ts';

describe('threshold policies', () => {
  it('half-window decides the DESIGN.md threshold and a 0.6 target', () => {
    const policy = halfWindowPolicy();
    expect(policy.decide({ contextWindow: 200_000, maxOutputTokens: 0 })).toMatchObject({ threshold: 100_000, target: 60_000 });
    expect(policy.decide({ contextWindow: 272_000, maxOutputTokens: 256_000 }).threshold).toBe(128_000);
  });

  it('budget triggers at 80% of 60% of the window', () => {
    const decision = budgetPolicy().decide({ contextWindow: 200_000, maxOutputTokens: 0 });
    expect(decision).toMatchObject({ threshold: 96_000, target: 57_600 });
    expect(decision.reason).toBe('80% of a budget of 60% of the 200,000 window');
  });

  it('budget says when the floor decided, in a window too small for its fractions', () => {
    const decision = budgetPolicy().decide({ contextWindow: 1_000, maxOutputTokens: 0 });
    expect(decision.threshold).toBe(500);
    expect(decision.reason).toBe('80% of a budget of 60% of the 1,000 window is 480, under the floor of 500 (2,000, at most half the window), so the floor applies');
  });

  it('budget still leaves room for a large known output budget', () => {
    expect(budgetPolicy().decide({ contextWindow: 100_000, maxOutputTokens: 70_000 }).threshold).toBe(48_000);
    expect(budgetPolicy({ budgetFraction: 1, triggerFraction: 1 }).decide({ contextWindow: 100_000, maxOutputTokens: 70_000 }).threshold).toBe(50_000);
  });

  it('budget takes its fractions as options and rejects nonsense', () => {
    expect(budgetPolicy({ budgetFraction: 0.5, triggerFraction: 0.5 }).decide({ contextWindow: 200_000, maxOutputTokens: 0 }).threshold).toBe(50_000);
    expect(() => budgetPolicy({ budgetFraction: 0 })).toThrow(/budgetFraction must be in \(0, 1\]/);
  });

  it('policies are plugins the registry knows by id', () => {
    const registry = createRegistry([halfWindowPolicy(), budgetPolicy()]);
    expect(registry.thresholdPolicy('budget').decide({ contextWindow: 200_000, maxOutputTokens: 0 }).threshold).toBe(96_000);
  });
});

describe('budgetPolicy on small windows (decision 0030)', () => {
  it('never compacts above what the window holds: the 2,000 floor is cut for a 1,000 window', () => {
    expect(budgetPolicy().decide({ contextWindow: 1_000, maxOutputTokens: 0 }).threshold).toBe(500);
    expect(budgetPolicy().decide({ contextWindow: 1_000, maxOutputTokens: 800 }).threshold).toBe(500);
    expect(budgetPolicy().decide({ contextWindow: 3_000, maxOutputTokens: 200 }).threshold).toBe(1_500);
    expect(budgetPolicy().decide({ contextWindow: 8_192, maxOutputTokens: 0 }).threshold).toBe(3_932);
  });
});
