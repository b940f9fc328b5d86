import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderErrorEntry } from './__fixtures__/provider-error-entry.ts';

// A held-out set only measures the classifier on strings it has not been fixed for: a body an earlier fixture
// already holds, in other spacing or case, would count as held out and was tuned on (decision 0064).
const folder = join(import.meta.dirname, '__fixtures__');
const setNumber = (file: string) => Number(/^provider-errors-holdout-(\d+)\.json$/.exec(file)?.[1] ?? Number.NaN);
const heldOutFiles = readdirSync(folder)
  .filter((file) => !Number.isNaN(setNumber(file)))
  .sort((a, b) => setNumber(a) - setNumber(b));
const earlierFixtures = ['provider-errors-more.json', 'holdout-errors.json'];

const entriesOf = (file: string): ProviderErrorEntry[] => JSON.parse(readFileSync(join(folder, file), 'utf8'));
// holdout-errors.json (the first set) names its text `body`.
const textOf = (entry: ProviderErrorEntry) => entry.body_or_message ?? (entry as unknown as { body: string }).body;
const sameText = (entry: ProviderErrorEntry) => textOf(entry).replace(/\s+/g, '').toLowerCase();

// Repeats recorded before this check existed, left in their sets as measured (decision 0064, "A seventeenth set").
const knownRepeats = new Set([
  'provider-errors-holdout-4.json: {"errortype":"validationexception","errormessage":"inputistoolongforrequestedmodel."',
  'provider-errors-holdout-7.json: {"error":{"code":429,"message":"nocapacityavailableformodelontheserver"',
  'provider-errors-holdout-10.json: <html><head><title>413requestentitytoolarge</title></head>',
]);
const isKnownRepeat = (file: string, text: string) => [...knownRepeats].some((repeat) => repeat.startsWith(`${file}: `) && text.startsWith(repeat.slice(file.length + 2)));

type NamedSet = readonly [file: string, entries: readonly ProviderErrorEntry[]];

/** Each held-out entry whose text (white space removed, lower case) an earlier fixture, an earlier set or its own set already holds. */
function repeatsOfEarlierFixtures(sets: readonly NamedSet[], earlier: readonly NamedSet[]): string[] {
  const seen = new Map<string, string>();
  for (const [file, entries] of earlier) for (const entry of entries) seen.set(sameText(entry), file);
  const repeats: string[] = [];
  for (const [file, entries] of sets) {
    const inThisSet = new Set<string>();
    for (const [index, entry] of entries.entries()) {
      const text = sameText(entry);
      const where = seen.get(text) ?? (inThisSet.has(text) ? file : undefined);
      if (where !== undefined && !isKnownRepeat(file, text)) repeats.push(`${file} entry ${index} repeats ${where}: ${textOf(entry).slice(0, 80)}`);
      inThisSet.add(text);
    }
    for (const text of inThisSet) seen.set(text, file);
  }
  return repeats;
}

const load = (file: string): NamedSet => [file, entriesOf(file)];

describe('held-out provider-error sets', () => {
  it('are found and ordered by number', () => {
    expect(heldOutFiles.length).toBeGreaterThanOrEqual(16);
    expect(heldOutFiles.slice(0, 3)).toEqual(['provider-errors-holdout-2.json', 'provider-errors-holdout-3.json', 'provider-errors-holdout-4.json']);
  });

  it('hold no body an earlier fixture or set holds, in any spacing or case', () => {
    expect(repeatsOfEarlierFixtures(heldOutFiles.map(load), earlierFixtures.map(load))).toEqual([]);
  });

  it('would report a body repeated in other spacing and case, from an earlier set or its own', () => {
    const [first, second] = heldOutFiles.map(load);
    const original = first![1][0]!;
    const spaced = { ...original, body_or_message: ` ${original.body_or_message.replace(/,/g, ', ').toUpperCase()}\n` };
    const later: NamedSet = ['provider-errors-holdout-99.json', [spaced]];
    expect(repeatsOfEarlierFixtures([first!, later], [])).toEqual([expect.stringContaining(`provider-errors-holdout-99.json entry 0 repeats ${first![0]}`)]);
    const twice: NamedSet = ['provider-errors-holdout-99.json', [second![1][0]!, second![1][0]!]];
    expect(repeatsOfEarlierFixtures([twice], [])).toEqual([expect.stringContaining('entry 1 repeats provider-errors-holdout-99.json')]);
  });
});
