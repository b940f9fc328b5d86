import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packBlocks, splitText } from './chunk-blocks.ts';

const countText = (text: string) => Math.ceil(text.length / 4);

describe('splitText', () => {
  it('cuts into pieces within the budget that join back to the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3_000 }), fc.integer({ min: 1, max: 300 }), (text, budget) => {
        const pieces = splitText(text, budget, countText);
        expect(pieces.join('')).toBe(text);
        for (const piece of pieces) {
          expect(piece.length).toBeGreaterThan(0);
          expect(countText(piece)).toBeLessThanOrEqual(budget);
        }
      }),
    );
  });

  it('cuts at line breaks when one is near', () => {
    const text = Array.from({ length: 50 }, (_, line) => `line ${line} of the output`).join('\n');
    const pieces = splitText(text, 40, countText);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('\n')).toBe(true);
  });

  it('never separates the halves of a surrogate pair', () => {
    const pieces = splitText('😀'.repeat(100), 3, countText);
    for (const piece of pieces) expect(piece).toMatch(/^(?:😀)+$/u);
  });
});

describe('packBlocks', () => {
  it('keeps order and the budget, and labels the pieces of an oversized block', () => {
    const blocks = ['[message 1 · user]\nshort', `[message 2 · tool result (bash)]\n${'x'.repeat(2_000)}`, '[message 3 · assistant]\nok'];
    const chunks = packBlocks(blocks, 100, countText);
    const flat = chunks.flat();
    expect(flat[0]).toBe(blocks[0]);
    expect(flat.at(-1)).toBe(blocks[2]);
    const pieces = flat.filter((block) => block.startsWith('[message 2'));
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces[0]).toMatch(new RegExp(`^\\[message 2 · tool result \\(bash\\)\\] \\(piece 1 of ${pieces.length}\\)\\n`));
    for (const chunk of chunks) expect(chunk.reduce((sum, block) => sum + countText(block), 0) + chunk.length - 1).toBeLessThanOrEqual(100);
  });

  it('puts blocks that fit together into one chunk', () => {
    expect(packBlocks(['a', 'b', 'c'], 100, countText)).toEqual([['a', 'b', 'c']]);
  });
});
