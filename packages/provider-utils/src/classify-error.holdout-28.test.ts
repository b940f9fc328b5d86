import twentyEighthSet from './__fixtures__/provider-errors-holdout-28.json' with { type: 'json' };
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentyEighthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-eighth held-out set (issue 14: the intelligence gem’s VCR cassettes of provider errors and the Vercel AI SDK’s gateway, xAI and OpenAI-compatible error fixtures and tests, none in any earlier fixture, measured untouched)',
  minEntries: 25,
  minReal: 16,
  minTests: 9,
  // Decision 0064, "A twenty-eighth set": the sources read held these families and none of Moonshot, Cerebras, Bedrock,
  // DeepSeek, Fireworks, DashScope, LiteLLM, llama.cpp, OpenAI itself, Ollama, vLLM or LM Studio.
  families: ['anthropic', 'groq', 'mistral', 'together', 'xai', 'openrouter', 'gemini', 'azure', 'vertex', 'gateway'],
  untouched: '25 of 25: real 16 of 16, tests 9 of 9 (100%), token figures 2 of 2',
  untouchedWrong: 0,
});
