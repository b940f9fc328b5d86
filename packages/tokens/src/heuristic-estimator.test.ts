import { describe, expect, it } from 'vitest';
import { heuristicEstimator } from './heuristic-estimator.ts';

describe('heuristicEstimator', () => {
  it('is characters ÷ 4 raised 25% by default, rounded up', () => {
    const estimator = heuristicEstimator();
    expect(estimator).toMatchObject({ specificationVersion: 'v1', kind: 'estimator', id: 'heuristic' });
    expect(estimator.estimate('')).toBe(0);
    expect(estimator.estimate('x'.repeat(400))).toBe(125);
    expect(estimator.estimate('abc')).toBe(1);
  });

  it('takes its ratio and inflation from options', () => {
    expect(heuristicEstimator({ charsPerToken: 3.3, inflation: 1 }).estimate('x'.repeat(330))).toBe(100);
    expect(heuristicEstimator({ inflation: 1 }).estimate('x'.repeat(400))).toBe(100);
  });

  it('counts CJK, kana and Hangul at a token a character, where characters ÷ 4 would undercount fourfold', () => {
    const estimator = heuristicEstimator({ inflation: 1 });
    expect(estimator.estimate('日本語のテキスト')).toBe(8);
    expect(estimator.estimate('한국어 텍스트')).toBe(Math.ceil(6 + 1 / 4));
    expect(estimator.estimate(`${'a'.repeat(40)}中文`)).toBe(12);
    expect(heuristicEstimator({ inflation: 1, denseCharsPerToken: 0 }).estimate('日本語のテキスト')).toBe(2);
  });

  it('rejects bad options and non-string input with INVALID_ARGUMENT', () => {
    expect(() => heuristicEstimator({ charsPerToken: 0 })).toThrow(/charsPerToken must be a finite number > 0, got 0/);
    expect(() => heuristicEstimator({ inflation: Number.NaN })).toThrow(/inflation/);
    expect(() => heuristicEstimator({ denseCharsPerToken: -1 })).toThrow(/denseCharsPerToken must be a finite number ≥ 0/);
    expect(() => heuristicEstimator().estimate(undefined as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: '[ctxkit:tokens] heuristic: estimate() takes a string, got undefined' }),
    );
  });
});
