import { corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { longestExactPiece, pieceChunks, sumPieces, tiktokenCounter } from './tiktoken-counter.ts';

// Module state is per test file, so nothing has loaded cl100k_base yet when this runs.
describe('before load()', () => {
  it('count() throws TOKENIZER_FAILED telling the caller to await load()', () => {
    const counter = tiktokenCounter('cl100k_base');
    expect(counter.loaded).toBe(false);
    expect(() => counter.count('hello')).toThrow(/\[ctxkit:tokens\] tiktoken-cl100k_base: count\(\) before the ranks were loaded; await counter\.load\(\)/);
    expect(() => counter.count('hello')).toThrow(expect.objectContaining({ code: 'TOKENIZER_FAILED' }));
  });
});

const reference = { o200k_base: new Tiktoken(o200k), cl100k_base: new Tiktoken(cl100k) };
// Plain js-tiktoken with special-token literals treated as text: the count this package must match.
const plain = (encoding: keyof typeof reference, text: string) => reference[encoding].encode(text, [], []).length;

describe.each(['o200k_base', 'cl100k_base'] as const)('tiktokenCounter(%s)', (encoding) => {
  const counter = tiktokenCounter(encoding);

  it('has the plugin shape the registry expects', async () => {
    await counter.load();
    expect(counter).toMatchObject({ specificationVersion: 'v1', kind: 'tokenizer', id: `tiktoken-${encoding}`, encoding, loaded: true });
  });

  it('counts special-token literals as ordinary text and never throws on them', async () => {
    await counter.load();
    for (const text of ['<|endoftext|>', 'before <|endoftext|> after', '<|endofprompt|><|fim_prefix|>x', '<|im_start|>user']) {
      expect(counter.count(text)).toBe(plain(encoding, text));
    }
    // As text, the literal is several tokens; as a special token it would be one.
    expect(counter.count('<|endoftext|>')).toBeGreaterThan(1);
    expect(() => reference[encoding].encode('<|endoftext|>')).toThrow();
  });

  it('matches js-tiktoken on tricky text: whitespace runs, digits, contractions, CJK, emoji, lone surrogates', async () => {
    await counter.load();
    const samples = [
      '',
      ' ',
      'hello world',
      "I'm sure they'll've DON'T",
      '   indented\n\n\n   code\t\t\r\n',
      '1234567890 3.14159 1e10',
      '日本語のテキストと한국어 텍스트',
      'emoji 🎉🎉👩‍👩‍👧 flags 🇫🇷',
      'lone \ud800 surrogate \udc00 end',
      'https://example.com/a/b?c=d&e=f#g',
      '    def f(x):\n        return x ** 2  # square\n',
    ];
    for (const text of samples) expect(counter.count(text), JSON.stringify(text)).toBe(plain(encoding, text));
  });

  it('matches js-tiktoken on long pieces (the heap merge path)', async () => {
    await counter.load();
    const random = fc.sample(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'q', 'z', 'é'), minLength: 150, maxLength: 300 }), { numRuns: 20, seed: 7 });
    for (const text of ['a'.repeat(400), 'ab'.repeat(200), '-'.repeat(600), ' '.repeat(500), 'x'.repeat(97), 'Zebra'.repeat(60), ...random]) {
      expect(counter.count(text), `${text.slice(0, 20)}… (${text.length})`).toBe(plain(encoding, text));
    }
  });

  it('matches js-tiktoken on arbitrary strings (property)', async () => {
    await counter.load();
    const tricky = fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', "'s", "'LL", '<|endoftext|>', '123', '4567', 'é', '日本', '😀', '\ud83d', 'Ab', 'aB', '...', '//', '--');
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.array(fc.oneof(tricky, fc.string({ maxLength: 6 })), { maxLength: 40 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (value) => counter.count(value) === plain(encoding, value)),
      { numRuns: 400 },
    );
  });
});

describe('the piece cache', () => {
  it('keeps counts exact when it is tiny or off (evictions never change a count)', async () => {
    const text = 'the quick brown fox jumps over the lazy dog; the dog sleeps. '.repeat(30) + '日本語 '.repeat(10);
    const tiny = tiktokenCounter('o200k_base', { pieceCacheSize: 3 });
    const off = tiktokenCounter('o200k_base', { pieceCacheSize: 0 });
    await tiny.load();
    const expected = plain('o200k_base', text);
    expect(tiny.count(text)).toBe(expected);
    expect(tiny.count(text)).toBe(expected);
    expect(off.count(text)).toBe(expected);
  });
});

describe('bad input', () => {
  it('rejects an unknown encoding and a non-string text with INVALID_ARGUMENT', async () => {
    expect(() => tiktokenCounter('p50k_base' as never)).toThrow(/unknown encoding "p50k_base"; expected o200k_base or cl100k_base/);
    expect(() => tiktokenCounter('o200k_base', { pieceCacheSize: -1 })).toThrow(/pieceCacheSize/);
    const counter = tiktokenCounter('o200k_base');
    await counter.load();
    expect(() => counter.count(42 as never)).toThrow(/count\(\) takes a string, got number/);
    expect(() => counter.count(null as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/count\(\) takes a string, got null/) }));
  });
});

const corpus = corpusDir();
if (!corpus) console.warn(`[tokens] ${corpusMissingMessage}`);

describe.skipIf(!corpus)('counts identical to js-tiktoken on the recorded runs of the shared corpus', () => {
  it.each(listTrajectories())('%s', async (file) => {
    const texts: string[] = [];
    for (const message of readTrajectory(file)) {
      if (typeof message.content === 'string') texts.push(message.content);
      else for (const part of message.content) if (part.type === 'text') texts.push(part.text);
      if (message.role === 'assistant') for (const call of message.toolCalls ?? []) texts.push(call.name, call.arguments);
    }
    expect(texts.length).toBeGreaterThan(20);
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const counter = tiktokenCounter(encoding);
      await counter.load();
      const mismatches = texts.filter((text) => counter.count(text) !== plain(encoding, text));
      expect(
        mismatches.map((text) => text.slice(0, 60)),
        `${encoding} mismatches`,
      ).toEqual([]);
      // The whole run as one text too: pieces that span message boundaries.
      const whole = texts.join('\n');
      expect(counter.count(whole)).toBe(plain(encoding, whole));
    }
  });
});

describe('sumPieces', () => {
  it('skips characters the pattern does not match, as matchAll does, and counts every piece after them', () => {
    const pieces: string[] = [];
    const total = sumPieces('ab!cd!!ef', /[a-z]+/uy, /[a-z]+/gu, (piece) => {
      pieces.push(piece);
      return piece.length;
    });
    expect(pieces).toEqual(['ab', 'cd', 'ef']);
    expect(total).toBe(6);
  });
});

describe('a piece longer than 8,192 characters (a run with no break)', () => {
  it('is cut into chunks of whole characters, at most 8,192 each', () => {
    expect(pieceChunks('ab'.repeat(10_000)).map((chunk) => chunk.length)).toEqual([longestExactPiece, longestExactPiece, 20_000 - 2 * longestExactPiece]);
    const emoji = '\u{1F600}'.repeat(10_000);
    const chunks = pieceChunks(emoji);
    expect(chunks.join('')).toBe(emoji);
    for (const chunk of chunks) expect(chunk.codePointAt(0)).toBe(0x1f600);
  });

  it('counts as its chunks do, the same as tiktoken for repeated runs', async () => {
    const counter = tiktokenCounter('o200k_base');
    await counter.load();
    for (const [unit, perToken] of [
      ['x', 8],
      ['ACGT', 2],
    ] as const) {
      const run = unit.repeat(100_000 / unit.length);
      // 'x' merges into 8-letter tokens, 'ACGT' into 2-letter ones: the chunk boundaries split none.
      expect(counter.count(run)).toBe(100_000 / perToken);
      expect(counter.count(run)).toBe(pieceChunks(run).reduce((sum, chunk) => sum + counter.count(chunk), 0));
    }
  });
});
