import fiftyFifthSet from './__fixtures__/provider-errors-holdout-55.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftyFifthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-fifth held-out set (issue 14: the newest wordings of the named families, measured untouched)',
  minEntries: 32,
  minReal: 10,
  minTests: 22,
  // Decision 0064, "A fifty-fifth set": 1M-token windows (Claude, Gemini), the Responses API, Gemini 3's thought_signature,
  // vLLM 0.13, llama-server's exceed_context_size_error with its figures. Every candidate found for Moonshot, Mistral, Groq,
  // Together, Ollama and LM Studio came from a file an earlier set cites, and none was found for Fireworks.
  families: familiesExcept('moonshot', 'mistral', 'groq', 'together', 'fireworks', 'ollama', 'lm studio'),
  untouched: '29 of 32: real 9 of 10, tests 20 of 22, token figures 27 of 29',
  untouchedWrong: 3,
});
