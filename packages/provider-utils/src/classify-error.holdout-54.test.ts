import fiftyFourthSet from './__fixtures__/provider-errors-holdout-54.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftyFourthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-fourth held-out set (issue 14: errors whose HTTP status misleads, measured untouched)',
  minEntries: 34,
  minReal: 7,
  minTests: 27,
  // Decision 0064, "A fifty-fourth set": rate limits and spent quotas under 400, 403 and 500, overflows under 500 and 413,
  // errors carried in a 200 body or stream, and errors logged with no status. No such string was found for Cerebras,
  // DeepSeek, Groq, Together, Fireworks, Azure, vLLM or LM Studio in sources no earlier set had used.
  families: familiesExcept('cerebras', 'deepseek', 'groq', 'together', 'fireworks', 'azure', 'vllm', 'lm studio'),
  untouched: '32 of 34: real 7 of 7, tests 25 of 27, token figures 2 of 2',
  untouchedWrong: 2,
});
