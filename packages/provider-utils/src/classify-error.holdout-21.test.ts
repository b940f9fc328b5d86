import { describe, expect, it } from 'vitest';
import twentyFirstSet from './__fixtures__/provider-errors-holdout-21.json' with { type: 'json' };
import { classifyError } from './classify-error.ts';
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentyFirstSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-first held-out set (issue 14: error strings LobeChat’s model-runtime tests feed its retry gate and Google error parser, none in any earlier fixture, measured untouched)',
  minEntries: 36,
  minReal: 0,
  minTests: 36,
  // Decision 0064, "A twenty-first set": test-suite strings only, from LobeChat's model-runtime tests (no earlier set
  // drew on them); they name Gemini, Azure, OpenAI, xAI, DeepSeek, Bedrock and OpenAI-compatible gateways only.
  families: familiesExcept('moonshot', 'cerebras', 'vertex', 'mistral', 'groq', 'together', 'fireworks', 'dashscope', 'litellm', 'llama.cpp', 'anthropic', 'openrouter', 'ollama', 'vllm', 'lm studio'),
  untouched: '35 of 36: real 0 of 0, tests 35 of 36 (97.2%), token figures 1 of 1',
  untouchedWrong: 1,
});

describe('the family the twenty-first set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads a gateway’s “not enough balance”, in either word order or as a code, as a spent balance waiting does not restore', () => {
    expect(classifyError({ status: 403, body: '{"error":{"message":"Not enough credits to run this request"}}' })).toMatchObject({
      kind: 'rate_limit',
      retryable: false,
    });
    expect(classifyError('account balance not enough, please recharge')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 402, body: '{"code":"NOT_ENOUGH_FUNDS"}' })).toMatchObject({ kind: 'rate_limit', retryable: false });
    // "Not enough" of something else is no balance: a context too small stays what it was.
    expect(classifyError({ status: 400, body: 'not enough tokens left in the context window for the completion' }).kind).not.toBe('rate_limit');
  });
});
