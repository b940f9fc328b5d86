import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Tiers may not import each other (DESIGN.md §2), so the summary machinery lives in both tier packages.
// This keeps the two copies identical; the tests of that machinery run in @ctxkit/tier-summary.
const here = join(import.meta.dirname, 'span-summary');
const sibling = join(import.meta.dirname, '..', '..', 'tier-summary', 'src', 'span-summary');
const sources = (dir: string) => readdirSync(dir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).sort();

describe.skipIf(!existsSync(sibling))('span-summary machinery', () => {
  it('is byte-identical to the copy in @ctxkit/tier-summary', () => {
    expect(sources(here)).toEqual(sources(sibling));
    for (const file of sources(here)) {
      expect(readFileSync(join(here, file), 'utf8'), `span-summary/${file} drifted from @ctxkit/tier-summary's copy`).toBe(readFileSync(join(sibling, file), 'utf8'));
    }
  });
});
