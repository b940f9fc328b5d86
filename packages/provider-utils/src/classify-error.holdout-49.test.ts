import fortyNinthSet from './__fixtures__/provider-errors-holdout-49.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fortyNinthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the forty-ninth held-out set (issue 14: hosted platforms and agent frameworks no earlier set had read, measured untouched)',
  minEntries: 34,
  minReal: 15,
  minTests: 19,
  // Decision 0064, "A forty-ninth set": its ground was GitHub Models (Azure AI inference), Cohere's documented messages,
  // SageMaker endpoints, OCI, and the wordings of Spring AI, Pydantic AI, Genkit and the Azure, Mistral and Vertex SDKs, so of
  // the named families it holds the ones those wrappers reach.
  families: familiesExcept('moonshot', 'cerebras', 'deepseek', 'groq', 'xai', 'together', 'fireworks', 'litellm', 'llama.cpp', 'anthropic', 'openrouter', 'ollama', 'vllm', 'lm studio'),
  untouched: '33 of 34: real 15 of 15, tests 18 of 19, token figures 2 of 2',
  untouchedWrong: 2,
});
