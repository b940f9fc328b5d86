import tenthSet from './__fixtures__/provider-errors-holdout-10.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = tenthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the tenth held-out set (issue 14: live bodies quoted in issue threads and classifier tests of projects no earlier set used, many of them errors that are none of the loop kinds, none in any earlier fixture, measured untouched)',
  minEntries: 57,
  minReal: 32,
  minTests: 25,
  // Every candidate sharing a 60-character stretch with an earlier fixture was dropped; that took every Vertex AI
  // body found (its 429 quota and "Resource exhausted" wordings are already held), so the set holds none (decision 0064).
  families: familiesExcept('vertex'),
  untouched: '55 of 57: real 31 of 32, tests 24 of 25, token figures 5 of 5',
  untouchedWrong: 3,
});
