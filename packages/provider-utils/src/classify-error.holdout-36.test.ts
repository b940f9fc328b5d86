import thirtySixthSet from './__fixtures__/provider-errors-holdout-36.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = thirtySixthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the thirty-sixth held-out set (issue 14: a Go client’s recorded cassettes and provider-error tests, Rust, Go, Lua and TypeScript test strings, measured untouched)',
  minEntries: 22,
  minReal: 3,
  minTests: 19,
  // Decision 0064, "A thirty-sixth set": the Moonshot, llama.cpp and vLLM strings found were already held by earlier
  // fixtures and were dropped; what was read held no uncited Bedrock, Vertex AI, Mistral, xAI, Fireworks, LiteLLM,
  // Anthropic, Azure, Ollama or LM Studio wording.
  families: familiesExcept('moonshot', 'bedrock', 'vertex', 'mistral', 'xai', 'fireworks', 'litellm', 'llama.cpp', 'anthropic', 'azure', 'ollama', 'vllm', 'lm studio'),
  untouched: '21 of 22: real 3 of 3, tests 18 of 19, no token figures stated; two retryable flags wrong',
  untouchedWrong: 3,
});
