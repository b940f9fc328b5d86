import fortiethSet from './__fixtures__/provider-errors-holdout-40.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fortiethSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fortieth held-out set (issue 14: the families sets 38 and 39 left empty, from small projects’ tests, logs and troubleshooting pages, measured untouched)',
  minEntries: 28,
  minReal: 8,
  minTests: 20,
  // Decision 0064, "A fortieth set": the ground was the families sets 38 and 39 had no new string for; the ones below
  // gave none in the files read that earlier fixtures do not hold (or lie outside that ground).
  families: familiesExcept('moonshot', 'bedrock', 'deepseek', 'mistral', 'xai', 'fireworks', 'dashscope', 'gateway', 'anthropic', 'vllm'),
  untouched: '27 of 28: real 7 of 8, tests 20 of 20, token figures 8 of 9',
  untouchedWrong: 3,
});
