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
});
