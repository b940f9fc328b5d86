import { describe, expect, it } from 'vitest';
import twentySixthSet from './__fixtures__/provider-errors-holdout-26.json' with { type: 'json' };
import { classifyError } from './classify-error.ts';
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentySixthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-sixth held-out set (issue 14: recorded cassettes and mocked error bodies from pydantic-ai, instructor, Spring AI, crewAI and a LiteLLM mapping port, none in any earlier fixture, measured untouched)',
  minEntries: 20,
  minReal: 4,
  minTests: 16,
  // Decision 0064, "A twenty-sixth set": the tests read held these families and none of Moonshot, Cerebras, Bedrock,
  // DeepSeek, xAI, Together, Fireworks, DashScope, llama.cpp, a bare gateway, Gemini, Azure, Ollama, vLLM or LM Studio.
  families: ['vertex', 'mistral', 'groq', 'litellm', 'openai', 'anthropic', 'openrouter'],
  untouched: '19 of 20: real 4 of 4, tests 15 of 16 (93.8%), token figures 2 of 3',
  untouchedWrong: 2,
});

describe('the families the twenty-sixth set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads a max_tokens that must be positive as a malformed parameter, not an output cap', () => {
    for (const body of ['max_completion_tokens must be a positive integer', '{"error":{"message":"max_tokens should be greater than 0"}}']) {
      expect(classifyError({ status: 400, body }).kind, body).toBe('other');
    }
    // An output cap over the model's maximum stays max_tokens; a negative budget the server worked out stays an overflow.
    expect(classifyError({ status: 400, body: 'max_tokens: 300000 > 64000, which is the maximum allowed number of output tokens' }).kind).toBe('max_tokens');
    expect(classifyError({ status: 400, body: 'max_tokens must be at least 1, got -563072' }).kind).toBe('context_overflow');
  });

  it('reads the misspelled "context lenght" as an overflow with its limit', () => {
    expect(classifyError({ status: 400, body: 'Error: maximum context lenght is 4096 tokens, your prompt has 5000' })).toMatchObject({ kind: 'context_overflow', limitTokens: 4096 });
  });
});
