import thirtySecondSet from './__fixtures__/provider-errors-holdout-32.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = thirtySecondSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the thirty-second held-out set (issue 14: overflow and rate-limit wordings quoted live in issue threads and project notes no earlier set cites, and a Perl project’s token-limit tests, measured untouched)',
  minEntries: 15,
  minReal: 11,
  minTests: 4,
  // Decision 0064, "A thirty-second set": the threads and files read held no uncited Moonshot, Cerebras, xAI, Together,
  // Fireworks or vLLM wording, and none of Bedrock, Vertex, Anthropic, Gemini or Azure.
  families: familiesExcept('moonshot', 'cerebras', 'bedrock', 'vertex', 'xai', 'together', 'fireworks', 'anthropic', 'gemini', 'azure', 'vllm'),
  untouched: '15 of 15: real 11 of 11, tests 4 of 4 (100%), token figures 8 of 9',
  untouchedWrong: 1,
});
