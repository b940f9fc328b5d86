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

describe('credits or an allowance used up, in Chinese (decision 0064, a sixty-fifth set)', () => {
  it('reads credits, points, balance or a free allowance used up as a quota that waiting does not restore', () => {
    for (const text of ['您的额度已经用完，请充值', '免费次数已用完', '{"error":{"message":"余额已用光","code":40202}}'])
      expect(classifyError(text), text).toMatchObject({ kind: 'rate_limit', retryable: false });
  });

  it('leaves memory or a context window used up alone', () => {
    for (const text of ['内存已耗尽', '上下文已用完，请开启新对话', 'GPU 显存已耗尽']) expect(classifyError(text).kind, text).toBe('other');
  });
});
