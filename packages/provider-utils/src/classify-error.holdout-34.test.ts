import thirtyFourthSet from './__fixtures__/provider-errors-holdout-34.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = thirtyFourthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the thirty-fourth held-out set (issue 14: test strings from other projects’ provider-error tests no earlier set cites, measured untouched)',
  minEntries: 31,
  minReal: 0,
  minTests: 31,
  // Decision 0064, "A thirty-fourth set": other projects' test strings only; the tests read held no uncited Cerebras,
  // Bedrock, DeepSeek, Mistral, Fireworks, OpenAI, Azure or OpenRouter wording.
  families: familiesExcept('cerebras', 'bedrock', 'deepseek', 'mistral', 'fireworks', 'openai', 'azure', 'openrouter'),
  untouched: '29 of 31: real 0 of 0, tests 29 of 31, token figures 25 of 27',
  untouchedWrong: 2,
});
