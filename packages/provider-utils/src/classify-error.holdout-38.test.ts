import thirtyEighthSet from './__fixtures__/provider-errors-holdout-38.json' with { type: 'json' };
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = thirtyEighthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the thirty-eighth held-out set (issue 14: regional providers and Chinese relays, documented bodies and a gateway test suite, measured untouched)',
  minEntries: 22,
  minReal: 19,
  minTests: 3,
  // Decision 0064, "A thirty-eighth set": the ground was regional providers (Volcengine Ark, MiniMax, Tencent CloudBase,
  // DashScope's coding plan) and Chinese relays; of the families it holds only these four, the others gave no
  // string that earlier fixtures do not hold.
  families: ['dashscope', 'gateway', 'openai', 'gemini'],
  untouched: '21 of 22: real 18 of 19, tests 3 of 3, token figures 2 of 2; two stated retryable flags wrong',
  untouchedWrong: 3,
});
