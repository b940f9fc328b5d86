import fiftyThirdSet from './__fixtures__/provider-errors-holdout-53.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftyThirdSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-third held-out set (issue 14: parameter and validation errors that use the words of a limit, measured untouched)',
  minEntries: 39,
  minReal: 15,
  minTests: 24,
  // Decision 0064, "A fifty-third set": errors that are none of the loop's kinds but say tokens, limit, maximum, too
  // long or too many. No such string was found for Cerebras, Together, Fireworks, Azure, Ollama, LM Studio or a
  // llama.cpp-derived server in sources no earlier set had used.
  families: familiesExcept('cerebras', 'together', 'fireworks', 'azure', 'ollama', 'lm studio', 'llama.cpp'),
  untouched: '34 of 39: real 14 of 15, tests 20 of 24, token figures 1 of 3',
  untouchedWrong: 5,
});
