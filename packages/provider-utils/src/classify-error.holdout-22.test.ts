import twentySecondSet from './__fixtures__/provider-errors-holdout-22.json' with { type: 'json' };
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentySecondSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-second held-out set (issue 14: error bodies the local servers and LiteLLM’s proxy write in their own source, and other projects’ tests of them, none in any earlier fixture, measured untouched)',
  minEntries: 40,
  minReal: 31,
  minTests: 9,
  // Decision 0064, "A twenty-second set": the ground was the hosts' own server source (Ollama, llama.cpp's server,
  // vLLM's OpenAI-compatible server, LiteLLM's proxy, LM Studio's server), so it names only those families.
  families: ['ollama', 'llama.cpp', 'vllm', 'litellm', 'lm studio'],
  untouched: '38 of 40: real 29 of 31, tests 9 of 9 (100%), token figures 9 of 9',
  untouchedWrong: 2,
});
