import twentySeventhSet from './__fixtures__/provider-errors-holdout-27.json' with { type: 'json' };
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentySeventhSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-seventh held-out set (issue 14: recorded provider error responses from the Vercel AI SDK’s provider fixtures and Mirascope’s VCR cassettes, none in any earlier fixture, measured untouched)',
  minEntries: 26,
  minReal: 11,
  minTests: 15,
  // Decision 0064, "A twenty-seventh set": the recordings read held these families and none of Moonshot, Cerebras, Vertex,
  // DeepSeek, Mistral, xAI, Together, Fireworks, LiteLLM, llama.cpp, a bare gateway, Azure, OpenRouter, Ollama, vLLM or LM Studio.
  families: ['bedrock', 'dashscope', 'groq', 'openai', 'anthropic', 'gemini'],
  untouched: '26 of 26: real 11 of 11, tests 15 of 15 (100%), no token figures stated',
  untouchedWrong: 0,
});
