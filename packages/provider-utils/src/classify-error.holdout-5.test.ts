import { describe, expect, it } from 'vitest';
import fifthSet from './__fixtures__/provider-errors-holdout-5.json' with { type: 'json' };
import { expectClassifiedAsStated, type HeldOutEntry, heldOutFigures, heldOutName } from './__fixtures__/provider-error-entry.ts';
import { classifyError } from './classify-error.ts';

const entries = fifthSet as HeldOutEntry[];

describe('classifyError on the fifth held-out set (issue 14: collected after the fourth set was fixed, none of it in any earlier fixture, measured untouched, then fixed by family)', () => {
  it('holds sourced real bodies and other projects’ test strings over the families the issue names', () => {
    expect(entries.length).toBeGreaterThanOrEqual(45);
    expect(entries.every((entry) => entry.source.length > 10)).toBe(true);
    expect(entries.filter((entry) => entry.origin === 'real').length).toBeGreaterThanOrEqual(40);
    expect(entries.filter((entry) => entry.origin === 'tests').length).toBeGreaterThanOrEqual(9);
    const providers = entries.map((entry) => entry.provider.toLowerCase()).join('\n');
    // LM Studio's one overflow wording is in the earlier fixtures in every form found, so the set has none (decision 0064).
    const families = ['moonshot', 'cerebras', 'bedrock', 'vertex', 'deepseek', 'mistral', 'groq', 'xai', 'together', 'fireworks', 'dashscope', 'litellm', 'llama.cpp', 'gateway'];
    for (const family of [...families, 'openai', 'anthropic', 'gemini', 'openrouter', 'ollama', 'vllm']) {
      expect(providers, family).toContain(family);
    }
  });

  it.each(entries.map((entry, index) => [heldOutName(entry, index), entry] as const).filter(([, entry]) => entry.known_miss === undefined))('%s', (_name, entry) => {
    expectClassifiedAsStated(entry);
  });

  it('gets every real body right and at least 95% of the other projects’ test strings (untouched it was 45 of 49: real 37 of 40, tests 8 of 9, token figures 22 of 23)', () => {
    const result = heldOutFigures(entries);
    expect(result.realRight).toBe(result.real);
    expect(result.testsRight).toBeGreaterThanOrEqual(Math.ceil(0.95 * result.tests));
    expect(result.tokenFiguresRight).toBe(result.tokenFigures);
    expect(entries.filter((entry) => entry.untouched_answer !== undefined)).toHaveLength(7);
  });
});

describe('the families the fifth set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads a quota that "will reset after 8h44m7s" as a wait too long to retry, and a reset minutes away as one to wait out', () => {
    expect(classifyError({ status: 429, body: 'Your quota resets in 3h12m.' })).toMatchObject({ kind: 'rate_limit', retryable: false, retryAfterMs: 11_520_000 });
    expect(classifyError({ status: 429, body: 'Limit reached; it resets after 40s' })).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfterMs: 40_000 });
  });

  it('reads an output budget worked out as negative ("max_tokens must be at least 1, got -N") as an overflow, not a max_tokens error', () => {
    expect(classifyError({ status: 400, body: '{"message":"max_completion_tokens must be at least 1, got -12."}' })).toMatchObject({ kind: 'context_overflow' });
    expect(classifyError({ status: 400, body: '{"message":"max_tokens must be at least 1, got 0."}' })).toMatchObject({ kind: 'max_tokens' });
  });

  it('reads a llama.cpp-derived server\'s "KV cache is full" as an overflow', () => {
    expect(classifyError('decode: KV cache is full, increase n_ctx')).toMatchObject({ kind: 'context_overflow' });
  });

  it('reads "HTTP 413 Payload Too Large" and "HTTP/1.1 400 Bad Request" as bare statuses (decision 0031), not as words', () => {
    expect(classifyError({ status: 413, body: 'HTTP/1.1 413 Request Entity Too Large' })).toMatchObject({ kind: 'other', fallback: true, retryable: false });
    expect(classifyError({ status: 400, body: 'HTTP 400 Bad Request' })).toMatchObject({ kind: 'other', fallback: true, retryable: true });
  });

  it('reads "you have hit your <plan> usage limit" as a rate limit', () => {
    expect(classifyError('You have hit your Team usage limit.')).toMatchObject({ kind: 'rate_limit', fallback: true });
  });

  it('reads "prompt is too long: N tokens exceeds maximum of M" with both figures', () => {
    expect(classifyError('input is too long: 9100 tokens, which exceeds the maximum of 8192')).toMatchObject({ kind: 'context_overflow', reportedTokens: 9100, limitTokens: 8192 });
  });

  it('reads a model that "is temporarily busy" as a busy service worth a retry', () => {
    expect(classifyError('The server is temporarily busy, please come back shortly')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });
});
