import eleventhSet from './__fixtures__/provider-errors-holdout-11.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = eleventhSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the eleventh held-out set (issue 14: errors inside streams, non-English bodies from Chinese providers and mocked error responses in other projects’ client tests, none in any earlier fixture, measured untouched)',
  minEntries: 75,
  minReal: 49,
  minTests: 26,
  // Every Cerebras body found shared a 60-character stretch with an earlier fixture (its "Tokens per minute limit
  // exceeded", "Requests per minute limit exceeded" and "Current length is ... while limit is" wordings are held),
  // so the set holds none (decision 0064).
  families: familiesExcept('cerebras'),
  untouched: '70 of 75: real 44 of 49, tests 26 of 26, token figures 4 of 4',
  untouchedWrong: 6,
});
