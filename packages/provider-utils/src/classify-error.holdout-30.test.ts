import thirtiethSet from './__fixtures__/provider-errors-holdout-30.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = thirtiethSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the thirtieth held-out set (issue 14: the loop’s kinds from other projects’ error-conversion and retry tests and from live errors their docs quote, none in any earlier fixture whole, measured untouched)',
  minEntries: 19,
  minReal: 12,
  minTests: 7,
  // Decision 0064, "A thirtieth set": the files read held none of these families' wordings that no earlier fixture holds whole.
  families: familiesExcept('moonshot', 'cerebras', 'bedrock', 'deepseek', 'mistral', 'xai', 'together', 'fireworks', 'llama.cpp', 'ollama', 'lm studio'),
  untouched: '18 of 19: real 11 of 12, tests 7 of 7 (100%), token figures 9 of 10; one stated retryable flag wrong',
  untouchedWrong: 3,
});
