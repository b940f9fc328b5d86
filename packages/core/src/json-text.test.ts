import { describe, expect, it } from 'vitest';
import { jsonText } from './json-text.ts';

describe('jsonText', () => {
  it('writes JSON, and falls back to String where JSON has no text or cannot write the value', () => {
    expect(jsonText({ path: 'src/app.ts', lines: [1, 2] })).toBe('{"path":"src/app.ts","lines":[1,2]}');
    expect(jsonText('a "quoted" word')).toBe('"a \\"quoted\\" word"');
    expect(jsonText(undefined)).toBe('undefined');
    expect(jsonText(10n)).toBe('10');
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    expect(jsonText(cycle)).toBe('[object Object]');
  });
});
