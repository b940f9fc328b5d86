import fiftySecondSet from './__fixtures__/provider-errors-holdout-52.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftySecondSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-second held-out set (issue 14: errors that arrive outside a plain HTTP error response, measured untouched)',
  minEntries: 54,
  minReal: 12,
  minTests: 42,
  // Decision 0064, "A fifty-second set": mid-stream SSE error frames, Responses API events, Realtime error events,
  // Batch API error records and finish or stop reasons given as error text. No Cerebras, xAI, Together, Fireworks or
  // LM Studio string was found in those shapes; Moonshot's is a Kimi deployment on Azure AI Foundry.
  families: familiesExcept('cerebras', 'xai', 'together', 'fireworks', 'lm studio'),
  untouched: '46 of 54: real 8 of 12, tests 38 of 42, token figures 2 of 2',
  untouchedWrong: 8,
});
