import fiftyFirstSet from './__fixtures__/provider-errors-holdout-51.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftyFirstSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-first held-out set (issue 14: provider errors in the shape clients print them, measured untouched)',
  minEntries: 66,
  minReal: 27,
  minTests: 39,
  // Decision 0064, "A fifty-first set": provider errors as SDKs stringify them (Python dict reprs after "Error code: N -",
  // google-genai's "N STATUS. {...}", botocore's "An error occurred (X) when calling the Converse operation", the Node
  // SDKs' "N status code (no body)", LiteLLM's exception chains, AI_RetryError, the Mistral, Ollama and Cerebras SDKs).
  families: familiesExcept('cerebras'),
  untouched: '66 of 66: real 27 of 27, tests 39 of 39, token figures 16 of 16 (one retryable flag wrong)',
  untouchedWrong: 1,
});
