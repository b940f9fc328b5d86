import { describe, expect, it } from 'vitest';
import { bytePairCount, parseRanks, utf8Binary } from './byte-pair-count.ts';

// A toy vocabulary in js-tiktoken's compressed format: every byte of "abc", then merges by rank.
const toy = ['! 0 YQ== Yg== Yw==', '! 3 YWI= YmM= YWJj'].join('\n');

describe('parseRanks', () => {
  it('reads js-tiktoken rank lines into binary-string keys', () => {
    const ranks = parseRanks(toy);
    expect([...ranks]).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
      ['ab', 3],
      ['bc', 4],
      ['abc', 5],
    ]);
  });
});

describe('bytePairCount', () => {
  const ranks = parseRanks(toy);
  it('merges the lowest rank first, the leftmost on ties', () => {
    expect(bytePairCount('abc', ranks)).toBe(1);
    // "ab" (3) beats "bc" (4), then "ab"+"c" is "abc" (5): one token; "cab" makes "c" + "ab".
    expect(bytePairCount('cab', ranks)).toBe(2);
    expect(bytePairCount('abab', ranks)).toBe(2);
    expect(bytePairCount('', ranks)).toBe(0);
  });

  it('gives the same count on the heap path as on the scan path', () => {
    const piece = 'abcab'.repeat(40);
    expect(bytePairCount(piece, ranks)).toBe(40 * bytePairCount('abcab', ranks));
  });
});

describe('utf8Binary', () => {
  it('turns text into one character per UTF-8 byte', () => {
    expect(utf8Binary('abc')).toBe('abc');
    expect([...utf8Binary('é')].map((char) => char.charCodeAt(0))).toEqual([0xc3, 0xa9]);
    expect([...utf8Binary('\ud800')].map((char) => char.charCodeAt(0))).toEqual([0xef, 0xbf, 0xbd]);
  });
});
