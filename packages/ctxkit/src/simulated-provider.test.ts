import { createHash } from 'node:crypto';
import { textOf } from '@ctxkit/core';
import { listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { chunksAtPieceBoundaries, createSimulatedProviderCounter } from './simulated-provider.ts';

// Every text of two recorded runs, one after another: code, logs, prose, JSON, paths.
const corpusText = listTrajectories()
  .slice(0, 2)
  .flatMap((file) => readTrajectory(file).map((message) => textOf(message.content)))
  .join('\n');
// An attachment as a model sees it: base64 (letters, digits, + and /) with no space or line break.
const base64Text = Buffer.concat(Array.from({ length: 940 }, (_, index) => createHash('sha512').update(`attachment ${index}`).digest())).toString('base64');

// Text that spells special tokens, which the provider counts as one token each.
const specialText = base64Text.replace(/(.{97})/g, '$1<|endoftext|>').replace(/(.{1013})/g, '$1 <|endofprompt|>\n');

// One js-tiktoken encoder per encoding for the whole file: building one takes most of a second.
const encoders = new Map<object, Tiktoken>();
const encoder = (ranks: typeof o200k) => encoders.get(ranks) ?? encoders.set(ranks, new Tiktoken(ranks)).get(ranks)!;

describe('chunksAtPieceBoundaries', () => {
  it.each([
    ['recorded runs', corpusText],
    ['base64', base64Text],
    ['text with special-token literals', specialText],
  ])('cuts only where both encodings end a piece: the chunked count of %s is the whole text count', (_, text) => {
    expect(text.length).toBeGreaterThan(70_000);
    const chunks = chunksAtPieceBoundaries(text, 300);
    expect(chunks.length).toBeGreaterThan(100);
    expect(chunks.join('')).toBe(text);
    for (const ranks of [o200k, cl100k]) {
      const tokenizer = encoder(ranks);
      const whole = tokenizer.encode(text, 'all').length;
      expect(chunks.reduce((sum, chunk) => sum + tokenizer.encode(chunk, 'all').length, 0)).toBe(whole);
    }
  });

  it('cuts after a line break before a letter, before a space and a letter, or after a letter, never inside a word or its contraction', () => {
    expect(chunksAtPieceBoundaries('12\ncd 5 ef', 1)).toEqual(['12\n', 'cd', ' 5', ' ef']);
    expect(chunksAtPieceBoundaries("it's 12  34\n\n56", 1)).toEqual(["it's", ' 12  34\n\n56']);
    expect(chunksAtPieceBoundaries('short', 100)).toEqual(['short']);
  });

  it('cuts a piece longer than its look-ahead (40 MB of one letter) at the chunk size, whole characters only', () => {
    const run = 'x'.repeat(50_000);
    const chunks = chunksAtPieceBoundaries(run, 8_192);
    expect(chunks.join('')).toBe(run);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(2 * 8_192);
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    const emoji = '\u{1F600}'.repeat(20_000);
    const halves = chunksAtPieceBoundaries(emoji, 8_191);
    expect(halves.join('')).toBe(emoji);
    for (const chunk of halves) expect(chunk.codePointAt(0)).toBe(0x1f600);
    // A run shorter than the look-ahead after the chunk size still waits for its piece's end.
    expect(chunksAtPieceBoundaries(`${'y'.repeat(9_000)} end`, 8_192)).toEqual([`${'y'.repeat(9_000)}`, ' end']);
  });

  it('never cuts inside a special-token literal, which the provider counts as one token', () => {
    expect(chunksAtPieceBoundaries('ab<|endoftext|> cd', 3)).toEqual(['ab<|endoftext|>', ' cd']);
  });

  it.each([
    ['recorded runs', corpusText],
    ['base64', base64Text],
    ['special-token literals', specialText],
  ])('counts a long text (%s) a chunk at a time, as js-tiktoken counts it whole', async (_, text) => {
    const counter = await createSimulatedProviderCounter('o200k_base');
    // Over 70K characters: many chunks (the provider cuts every 8K characters or so).
    expect(text.length).toBeGreaterThan(70_000);
    expect(counter.countText(text)).toBe(encoder(o200k).encode(text, 'all').length);
  });

  it('counts a run with no break (one piece of 200,000 letters) by its chunks, as tiktoken merges such runs', async () => {
    const counter = await createSimulatedProviderCounter('o200k_base');
    // 'x' merges into 8-letter tokens and 'ACGT' into 2-letter ones; js-tiktoken alone would take hours on the
    // whole run (decision 0091), so the reference is the same run in those steps.
    expect(counter.countText('x'.repeat(200_000))).toBe(25_000);
    // Cut where a merge would have joined: at most a token more a chunk (25 chunks here).
    const sequence = `Read it: ${'ACGT'.repeat(50_000)}`;
    const whole = encoder(o200k).encode('Read it: ', 'all').length + 100_000;
    expect(counter.countText(sequence)).toBeGreaterThanOrEqual(whole);
    expect(counter.countText(sequence)).toBeLessThanOrEqual(whole + Math.ceil(sequence.length / 8_192));
  });
});
