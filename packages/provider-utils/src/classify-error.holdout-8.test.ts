import eighthSet from './__fixtures__/provider-errors-holdout-8.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = eighthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the eighth held-out set (issue 14: providers’ documented error tables, issue threads and server sources, and agent frameworks’ classifier tests, none in any earlier fixture, measured untouched)',
  minEntries: 45,
  minReal: 30,
  minTests: 15,
  // Every Moonshot, Cerebras, Groq, DashScope, LiteLLM, Gemini and Azure string found for this set shared a
  // 60-character stretch with an earlier fixture, so the set has none of them (decision 0064).
  families: familiesExcept('moonshot', 'cerebras', 'groq', 'dashscope', 'litellm', 'gemini', 'azure'),
  untouched: '43 of 49: real 29 of 33, tests 14 of 16, token figures 6 of 6',
  untouchedWrong: 7,
});
