import twentySixthSet from './__fixtures__/provider-errors-holdout-26.json' with { type: 'json' };
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
