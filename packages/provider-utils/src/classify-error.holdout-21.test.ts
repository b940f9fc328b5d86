import twentyFirstSet from './__fixtures__/provider-errors-holdout-21.json' with { type: 'json' };
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
