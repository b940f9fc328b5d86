import fiftySixthSet from './__fixtures__/provider-errors-holdout-56.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftySixthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-sixth held-out set (issue 14: errors as frameworks and SDK wrappers hand them on, measured untouched)',
  minEntries: 34,
  minReal: 19,
  minTests: 15,
  // Decision 0064, "A fifty-sixth set": the Vercel AI SDK's AI_APICallError and AI_RetryError, botocore's ClientError str(),
  // LangChain's Bedrock ValueError, the Anthropic, Groq and OpenAI Python SDKs' `Error code: N - {...}`, LiteLLM's
  // `<Provider>Exception - ` prefixes and OpenRouter's metadata.raw. Every candidate found for Cerebras, Mistral, Fireworks
  // and llama.cpp came from a file an earlier set cites; none was found for Together, and Ollama, vLLM and LM Studio were
  // not this set's ground.
  families: familiesExcept('cerebras', 'mistral', 'together', 'fireworks', 'llama.cpp', 'ollama', 'vllm', 'lm studio'),
  untouched: '32 of 34: real 18 of 19, tests 14 of 15, token figures 2 of 2; two more entries had a flag wrong',
  untouchedWrong: 4,
});
