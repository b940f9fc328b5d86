import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, corpusMissingMessage } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { vllmProvider } from './vllm-provider.ts';

interface CorpusEntry {
  provider: string;
  status: number | null;
  kind: string;
  body_or_message: string;
  reported_tokens?: number;
  limit_tokens?: number;
}

const dir = corpusDir();
if (!dir) console.log(corpusMissingMessage);
const entries: CorpusEntry[] = dir ? JSON.parse(readFileSync(join(dir, 'errors', 'provider-errors.json'), 'utf8')) : [];
const provider = vllmProvider();
const classify = (entry: CorpusEntry) => provider.classifyError(entry.status === null ? entry.body_or_message : { status: entry.status, body: entry.body_or_message });

describe.skipIf(!dir)('vllmProvider.classifyError on the real error bodies of the corpus', () => {
  const own = entries.filter((entry) => /vllm/i.test(entry.provider));

  it('has entries of this server to check', () => {
    expect(own.length).toBeGreaterThan(0);
  });

  it.each(own.map((entry) => [entry.provider, entry.body_or_message.slice(0, 60), entry] as const))('%s: %s', (_provider, _text, entry) => {
    const result = classify(entry);
    expect(result.kind).toBe(entry.kind);
    if (entry.limit_tokens !== undefined) expect(result.limitTokens).toBe(entry.limit_tokens);
    if (entry.reported_tokens !== undefined) expect([result.reportedTokens, result.inputTokens]).toContain(entry.reported_tokens);
  });

  it('keeps every other entry in its family: the rules of this server take nothing from the others', () => {
    const wrong = entries.filter((entry) => classify(entry).kind !== entry.kind).map((entry) => `${entry.provider}: ${classify(entry).kind} instead of ${entry.kind}`);
    expect(wrong).toEqual([]);
  });
});
