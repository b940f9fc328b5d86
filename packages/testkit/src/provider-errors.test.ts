import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusDir } from './corpus.ts';
import { providerErrorInput, readProviderErrors } from './provider-errors.ts';

const kinds = ['context_overflow', 'max_tokens', 'rate_limit', 'timeout', 'offline', 'other'];

describe('providerErrorInput', () => {
  it('gives a classifier the text alone where the corpus has no status, else the status and body', () => {
    const entry = { provider: 'p', kind: 'rate_limit', body_or_message: 'slow down', source: 's' } as const;
    expect(providerErrorInput({ ...entry, status: null })).toBe('slow down');
    expect(providerErrorInput({ ...entry, status: 429 })).toEqual({ status: 429, body: 'slow down' });
  });
});

describe('readProviderErrors', () => {
  const previous = process.env.CTXKIT_CORPUS;
  afterEach(() => {
    if (previous === undefined) delete process.env.CTXKIT_CORPUS;
    else process.env.CTXKIT_CORPUS = previous;
  });

  it.skipIf(!corpusDir())('reads every entry of errors/provider-errors.json, each with a known kind', () => {
    const entries = readProviderErrors();
    expect(entries.length).toBeGreaterThan(50);
    expect(entries.filter((entry) => !kinds.includes(entry.kind))).toEqual([]);
    expect(new Set(entries.map((entry) => entry.kind))).toContain('context_overflow');
    expect(entries.every((entry) => entry.status === null || typeof entry.status === 'number')).toBe(true);
  });

  it('is empty where the corpus is absent', () => {
    process.env.CTXKIT_CORPUS = join(tmpdir(), 'ctxkit-no-corpus-here');
    expect(readProviderErrors()).toEqual([]);
  });

  it('names the file and the entry that is not a provider error', () => {
    const folder = mkdtempSync(join(tmpdir(), 'ctxkit-corpus-'));
    mkdirSync(join(folder, 'errors'));
    writeFileSync(join(folder, 'errors', 'provider-errors.json'), JSON.stringify([{ provider: 'p', kind: 'other', body_or_message: 'x' }, { provider: 'q' }]));
    process.env.CTXKIT_CORPUS = folder;
    expect(() => readProviderErrors()).toThrow(/provider-errors\.json entry 1 needs provider, kind and body_or_message strings$/);
    writeFileSync(join(folder, 'errors', 'provider-errors.json'), '{}');
    expect(() => readProviderErrors()).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
