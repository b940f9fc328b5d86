import { describe, expect, it } from 'vitest';
import twentyFourthSet from './__fixtures__/provider-errors-holdout-24.json' with { type: 'json' };
import { classifyError } from './classify-error.ts';
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentyFourthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-fourth held-out set (issue 14: error strings from other projects’ test suites found by their words in the search index, and one live body a relay’s test records, none in any earlier fixture, measured untouched)',
  minEntries: 44,
  minReal: 1,
  minTests: 43,
  // Decision 0064, "A twenty-fourth set": its ground was other projects' tests; they hold local servers, relays,
  // Anthropic, OpenAI, Bedrock, DashScope, Moonshot, OpenRouter and Groq wordings, and nothing of the rest.
  families: ['gateway', 'openai', 'anthropic', 'vllm', 'lm studio', 'llama.cpp', 'ollama', 'bedrock', 'dashscope', 'moonshot', 'openrouter', 'groq'],
  untouched: '40 of 44: real 1 of 1, tests 39 of 43 (90.7%), token figures 20 of 21',
  untouchedWrong: 5,
});

describe('the families the twenty-fourth set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads a KV cache with too little room for the tokens as an overflow', () => {
    for (const error of [
      { status: 500, body: '{"error":{"message":"not enough space in kv cache"}}' },
      'llama server: KV-cache has too little room for this prompt',
      { status: 400, body: 'kv_cache insufficient space for 9000 tokens' },
    ]) {
      expect(classifyError(error).kind, JSON.stringify(error)).toBe('context_overflow');
    }
    // A KV cache that is merely mentioned is not a full one.
    expect(classifyError({ status: 500, body: 'KV cache quantization type q4_0 is not supported' }).kind).not.toBe('context_overflow');
  });

  it('reads the tokens of a request over the tokens allowed as an overflow', () => {
    expect(classifyError({ status: 400, body: 'tokens of the prompt exceed the maximum tokens allowed' }).kind).toBe('context_overflow');
    expect(classifyError('Number of tokens in messages is greater than max tokens permitted').kind).toBe('context_overflow');
  });

  it('reads the limit of a maximum allowed input or prompt length', () => {
    expect(classifyError({ status: 400, body: 'prompt of 9100 tokens is longer than the maximum allowed prompt length of 8192' })).toMatchObject({
      kind: 'context_overflow',
      limitTokens: 8192,
    });
  });

  it('reads a usage window named by its length, or a limit with the time it resets, as a quota waiting a moment does not restore', () => {
    for (const error of ['Claude AI usage limit: 24-hour limit reached', 'Weekly limit hit; resets on Monday', { status: 403, body: 'Plan limit exceeded, resets in 3 days' }]) {
      expect(classifyError(error), JSON.stringify(error)).toMatchObject({ kind: 'rate_limit', retryable: false });
    }
    // A context limit with no reset time is an overflow, not a quota.
    expect(classifyError('context limit reached').kind).not.toBe('rate_limit');
  });

  it('reads a temporary capacity issue as a busy service, and a status in parentheses after "rejected" or "failed"', () => {
    expect(classifyError('The model hit a temporary capacity issue, please retry')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('Request failed (503)')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('Request rejected (429)')).toMatchObject({ kind: 'rate_limit', retryable: true });
  });
});
