import { describe, expect, it } from 'vitest';
import { samplePattern, violatePattern } from './regex-sample.ts';

describe('samplePattern', () => {
  it.each([
    '^[a-zA-Z]{2}$',
    '^((([1-9]|[1-9][0-9]|[1-2][0-9][0-9]|3[0-5][0-9]|36[0-4])d(control)?)|(([1-9]|[1-4][0-9]|5[0-2])w(control)?))$',
    '^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])$',
    '^(-?[a-zA-Z]{2})$',
    '^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^(?:v)?\\d+\\.\\d+\\.\\d+(?<pre>-[0-9A-Za-z.]+)?$',
    '^[\\u0041-\\u005A]+$',
    'x{2,}y',
  ])('returns a match for %s, in several variants', (pattern) => {
    for (let variant = 0; variant < 4; variant++) {
      const sample = samplePattern(pattern, variant);
      expect(sample, `variant ${variant}`).toBeDefined();
      expect(new RegExp(pattern, 'u').test(sample!)).toBe(true);
    }
  });

  it('falls back to known candidates for constructs it does not parse', () => {
    const lookahead = '^(?=.*[a-z])(?=.*\\d)[a-z0-9]+$';
    expect(samplePattern(lookahead)).toBe('a1');
    expect(samplePattern('^(a)\\1$')).toBeUndefined();
  });

  it('returns undefined for a pattern that does not compile', () => {
    expect(samplePattern('([')).toBeUndefined();
  });
});

describe('violatePattern', () => {
  it('returns a string the pattern rejects', () => {
    expect(violatePattern('^[a-z]+$')).toBe('!');
    expect(violatePattern('^.*$')).toBeUndefined();
  });
});
