import fortyEighthSet from './__fixtures__/provider-errors-holdout-48.json' with { type: 'json' };
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fortyEighthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the forty-eighth held-out set (issue 14: self-hosted and local inference servers and the agent wrappers around them, measured untouched)',
  minEntries: 33,
  minReal: 10,
  minTests: 23,
  // Decision 0064, "A forty-eighth set": its ground was self-hosted and local servers (SGLang, LMDeploy, KoboldCpp, LocalAI,
  // Xinference, node-llama-cpp, llama-cpp-python, llama.cpp's embedding and tool-call refusals, Ollama) and the AI SDK's
  // APICallError text as agents log it (with five strings of a context-overflow detector's tests added, measured untouched too), so of the named families it holds only llama.cpp and Ollama.
  families: ['llama.cpp', 'ollama'],
  untouched: '30 of 33: real 9 of 10, tests 21 of 23, token figures 16 of 18',
  untouchedWrong: 7,
});
