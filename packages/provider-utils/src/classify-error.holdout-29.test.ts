import twentyNinthSet from './__fixtures__/provider-errors-holdout-29.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentyNinthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-ninth held-out set (issue 14: the loop’s kinds, overflow, output cap, rate limit and quota, server errors, as other projects’ test suites spell them, none in any earlier fixture, measured untouched)',
  minEntries: 31,
  minReal: 0,
  minTests: 31,
  // Decision 0064, "A twenty-ninth set": the files read held none of these families' wordings that no earlier fixture holds whole.
  families: familiesExcept('vertex', 'deepseek', 'fireworks', 'litellm', 'gemini', 'azure', 'openrouter', 'vllm', 'lm studio'),
  untouched: '31 of 31: real 0 of 0, tests 31 of 31 (100%), token figures 22 of 22; one stated retryable flag wrong',
  untouchedWrong: 1,
});
