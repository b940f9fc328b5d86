import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('the corpus vendored in the repository (a plain clone runs every test)', () => {
  const root = join(import.meta.dirname, '..', '..', '..');
  it('holds every trajectory, schema and error file, each named with its source and license in its README', () => {
    const vendored = join(root, 'corpus');
    const readme = readFileSync(join(vendored, 'README.md'), 'utf8');
    const files = ['trajectories', 'schemas'].flatMap((folder) => readdirSync(join(vendored, folder)));
    expect(files.length).toBeGreaterThanOrEqual(13);
    for (const file of files) expect(readme).toContain(file);
    expect(existsSync(join(vendored, 'errors', 'provider-errors.json'))).toBe(true);
    expect(readme).toMatch(/MIT/);
    expect(readdirSync(join(vendored, 'licenses')).sort()).toEqual(['Apache-2.0.txt', 'MIT.txt']);
  });

  it('is where corpusDir() looks when CTXKIT_CORPUS is unset and ../shared/corpus is absent', () => {
    const previous = process.env.CTXKIT_CORPUS;
    delete process.env.CTXKIT_CORPUS;
    try {
      const clone = join(mkdtempSync(join(tmpdir(), 'ctxkit-clone-')), 'ctxkit');
      mkdirSync(join(clone, 'corpus'), { recursive: true });
      mkdirSync(join(clone, 'packages', 'x'), { recursive: true });
      writeFileSync(join(clone, 'pnpm-workspace.yaml'), 'packages: [packages/*]\n');
      expect(corpusDir(join(clone, 'packages', 'x'))).toBe(join(clone, 'corpus'));
      mkdirSync(join(clone, '..', 'shared', 'corpus'), { recursive: true });
      expect(corpusDir(join(clone, 'packages', 'x'))).toBe(join(clone, '..', 'shared', 'corpus'));
      expect(corpusDir()).toBe(existsSync(join(root, '..', 'shared', 'corpus')) ? join(root, '..', 'shared', 'corpus') : join(root, 'corpus'));
    } finally {
      if (previous !== undefined) process.env.CTXKIT_CORPUS = previous;
    }
  });
});
