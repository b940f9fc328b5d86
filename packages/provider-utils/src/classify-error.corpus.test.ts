import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, corpusMissingMessage } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.ts';

interface CorpusEntry {
  provider: string;
  status: number | null;
  kind: string;
  body_or_message: string;
  source: string;
  reported_tokens?: number;
  limit_tokens?: number;
}

const dir = corpusDir();
if (!dir) console.log(corpusMissingMessage);
const entries: CorpusEntry[] = dir ? JSON.parse(readFileSync(join(dir, 'errors', 'provider-errors.json'), 'utf8')) : [];

function classify(entry: CorpusEntry) {
  return classifyError(entry.status === null ? entry.body_or_message : { status: entry.status, body: entry.body_or_message });
}

describe.skipIf(!dir)('classifyError on every real error body of the corpus', () => {
  it.each(entries.map((entry, index) => [index, entry.provider, entry] as const))('#%i %s', (_index, _provider, entry) => {
    const result = classify(entry);
    expect(result.kind).toBe(entry.kind);
    if (entry.limit_tokens !== undefined) expect(result.limitTokens).toBe(entry.limit_tokens);
    if (entry.reported_tokens !== undefined) {
      // For "input + max_tokens > limit" the corpus records sometimes the total, sometimes the input part:
      // the classification carries both (reportedTokens is the total, inputTokens the input part).
      expect([result.reportedTokens, result.inputTokens]).toContain(entry.reported_tokens);
    }
    expect(result.fallback).toBe(entry.kind === 'rate_limit');
  });

  it('sends daily quotas and never-fitting requests to the next provider instead of retrying', () => {
    const notRetryable = entries.filter((entry) => /per-day|daily|NOT retryable|waiting does not help|daily token quota|per-day quota/i.test(entry.provider));
    expect(notRetryable.length).toBeGreaterThanOrEqual(4);
    for (const entry of notRetryable) expect(classify(entry), entry.provider).toMatchObject({ kind: 'rate_limit', retryable: false, fallback: true });
  });
});
