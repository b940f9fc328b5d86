import { describe, expect, it } from 'vitest';
import more from './__fixtures__/provider-errors-more.json' with { type: 'json' };
import { expectClassifiedAsStated, type ProviderErrorEntry } from './__fixtures__/provider-error-entry.ts';
import { classifyError } from './classify-error.ts';

/** One entry of `__fixtures__/provider-errors-more.json`: a real error string and what it must classify as. */
interface MoreEntry extends ProviderErrorEntry {
  /** `provider` / `tests`: tuned on; `*-holdout*`: never tuned on (see the package README). */
  set: string;
}

const entries = more as MoreEntry[];

describe('classifyError on provider errors beyond the shared corpus (Moonshot, Cerebras, Bedrock, Vertex, DeepSeek, Mistral, Groq, xAI, Together, DashScope, LiteLLM, llama.cpp-derived, bare gateways) and on other projects’ test strings', () => {
  it('has entries for every provider family the issue names, each with its source', () => {
    const providers = entries.map((entry) => entry.provider.toLowerCase()).join('\n');
    for (const family of ['moonshot', 'cerebras', 'bedrock', 'vertex', 'deepseek', 'mistral', 'groq', 'xai', 'together', 'dashscope', 'litellm', 'llama.cpp', 'gateway']) {
      expect(providers, family).toContain(family);
    }
    expect(entries.every((entry) => entry.source.length > 10)).toBe(true);
    expect(entries.filter((entry) => entry.set.includes('holdout')).length).toBeGreaterThan(40);
  });

  it.each(entries.map((entry, index) => [`${index} ${entry.set} ${entry.provider}: ${entry.body_or_message.slice(0, 70) || `(bare ${entry.status})`}`, entry] as const))('%s', (_name, entry) => {
    expectClassifiedAsStated(entry);
  });
});

describe('bare 400 and 413 answers (decision 0031)', () => {
  it('does not call an empty 400 an overflow: another try or another provider, not a compaction', () => {
    expect(classifyError({ status: 400, body: '' })).toMatchObject({ kind: 'other', fallback: true, retryable: true });
    expect(classifyError(Object.assign(new Error('400 status code (no body)'), { status: 400 }))).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError({ status: 413, body: '' })).toMatchObject({ kind: 'other', fallback: true, retryable: false });
  });

  it('reads a bare 400 or 413 from Cerebras, which answers overflows that way, as an overflow', () => {
    expect(classifyError({ status: 400, body: '' }, { provider: 'cerebras' })).toMatchObject({ kind: 'context_overflow' });
    expect(classifyError('413 status code (no body)', { provider: 'cerebras' })).toMatchObject({ kind: 'context_overflow' });
  });

  it('still reads the words of a 400 or 413 that has a body', () => {
    expect(classifyError({ status: 413, body: 'context length exceeded' })).toMatchObject({ kind: 'context_overflow' });
    expect(classifyError({ status: 400, body: '{"error":{"message":"Invalid API key"}}' })).toMatchObject({ kind: 'other', fallback: false });
  });
});
