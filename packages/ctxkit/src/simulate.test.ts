import { corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { simulateRun } from './simulate.ts';

const corpus = corpusDir();
if (!corpus) console.warn(`[ctxkit] ${corpusMissingMessage}`);

// DESIGN.md §3 on real runs (issue 4's proof): a 32,000-token window, a 4,096-token output reserve,
// the offline factual-note summarizer standing in for the model.
describe.skipIf(!corpus)('replaying every recorded run through the default preset at 32K', () => {
  it.each(listTrajectories())('%s: every request fits, pairs intact, system identical, recent rounds verbatim, archives restore', async (file) => {
    const recorded = readTrajectory(file);
    const result = await simulateRun(recorded, { window: 32_000, maxOutputTokens: 4_096, policy: 'ctxkit', check: true });
    expect(result.violations).toEqual([]);
    expect(result.overflows).toBe(0);
    expect(result.peakInputTokens + 4_096).toBeLessThanOrEqual(32_000);
    const uncompacted = await simulateRun(recorded, { window: 32_000, maxOutputTokens: 4_096, policy: 'none' });
    if (uncompacted.overflows > 0) expect(result.compactions).toBeGreaterThan(0);
  }, 120_000);
});
