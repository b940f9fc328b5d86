import { validateTranscript } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from './corpus.ts';

const corpus = corpusDir();
if (!corpus) console.warn(`[testkit] ${corpusMissingMessage}`);

describe.skipIf(!corpus)('the recorded runs of the shared corpus', () => {
  it.each(listTrajectories())('%s parses into a valid transcript', (file) => {
    const messages = readTrajectory(file);
    expect(messages.length).toBeGreaterThan(20);
    expect(messages[0]!.role).toBe('system');
    expect(validateTranscript(messages)).toEqual([]);
  });
});
