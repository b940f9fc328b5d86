import thirtyFifthSet from './__fixtures__/provider-errors-holdout-35.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = thirtyFifthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the thirty-fifth held-out set (issue 14: a Ruby client’s recorded live cassettes and Ruby, Elixir and Go test strings, measured untouched)',
  minEntries: 28,
  minReal: 18,
  minTests: 10,
  // Decision 0064, "A thirty-fifth set": the cassettes and tests read held no Moonshot, Cerebras, Groq, Together,
  // Fireworks, DashScope, bare-gateway, Ollama, vLLM or LM Studio wording.
  families: familiesExcept('moonshot', 'cerebras', 'groq', 'together', 'fireworks', 'dashscope', 'gateway', 'ollama', 'vllm', 'lm studio'),
  untouched: '28 of 28: real 18 of 18, tests 10 of 10, token figures 11 of 11',
  untouchedWrong: 0,
});
