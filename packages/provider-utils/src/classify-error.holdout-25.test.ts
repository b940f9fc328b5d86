import twentyFifthSet from './__fixtures__/provider-errors-holdout-25.json' with { type: 'json' };
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentyFifthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-fifth held-out set (issue 14: error strings from other projects’ test suites, openai-php and semantic-kernel among them, and one wire body a test records, none in any earlier fixture, measured untouched)',
  minEntries: 47,
  minReal: 1,
  minTests: 46,
  // Decision 0064, "A twenty-fifth set": its ground was other projects' tests; they hold these families and none of
  // Moonshot, Bedrock, xAI, Together, Fireworks, llama.cpp, OpenRouter, Ollama or LM Studio.
  families: ['cerebras', 'vertex', 'deepseek', 'mistral', 'groq', 'dashscope', 'litellm', 'gateway', 'openai', 'anthropic', 'gemini', 'azure', 'vllm'],
  untouched: '41 of 47: real 1 of 1, tests 40 of 46 (87.0%), token figures 9 of 13',
  untouchedWrong: 6,
});
