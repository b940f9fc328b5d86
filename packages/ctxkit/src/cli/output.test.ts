import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CliIo, counted, progressBar, table } from './output.ts';

const capture = (isTTY: boolean) => {
  const err: string[] = [];
  const io: CliIo = { stdout: () => {}, stderr: (text) => err.push(text), isTTY };
  return { io, err };
};

afterEach(() => vi.useRealTimers());

describe('table', () => {
  it('aligns the first columns left and the numbers right', () => {
    expect(
      table(
        ['run', 'tokens'],
        [
          ['a', '1,234'],
          ['longer', '5'],
        ],
      ),
    ).toBe(['run     tokens', '------  ------', 'a        1,234', 'longer       5'].join('\n'));
  });
});

describe('progressBar', () => {
  it('draws nothing in the first second, then a bar on a terminal, and clears it at the end', () => {
    vi.useFakeTimers();
    const { io, err } = capture(true);
    const bar = progressBar(io, 'simulating');
    bar.update(1, 10);
    expect(err).toEqual([]);
    vi.advanceTimersByTime(1_500);
    bar.update(5, 10);
    expect(err.at(-1)).toBe(`\rsimulating [${'#'.repeat(14)}${'.'.repeat(14)}] 5/10`);
    bar.done();
    expect(err.at(-1)).toMatch(/^\r\s+\r$/);
  });

  it('never draws when stderr is not a terminal (piped output stays clean)', () => {
    vi.useFakeTimers();
    const { io, err } = capture(false);
    const bar = progressBar(io, 'simulating');
    vi.advanceTimersByTime(5_000);
    bar.update(5, 10);
    bar.done();
    expect(err).toEqual([]);
  });
});

describe('counted', () => {
  it('puts the noun in the number its count takes, with thousands separators', () => {
    expect(counted(1, 'message')).toBe('1 message');
    expect(counted(0, 'message')).toBe('0 messages');
    expect(counted(12_000, 'token')).toBe('12,000 tokens');
    expect(counted(1, 'more warning')).toBe('1 more warning');
    expect(counted(2, 'query', 'queries')).toBe('2 queries');
  });
});
