import thirtyNinthSet from './__fixtures__/provider-errors-holdout-39.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = thirtyNinthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the thirty-ninth held-out set (issue 14: other projects’ test suites only, agent and gateway overflow and retry tests in Go, Rust, Python and TypeScript, measured untouched)',
  minEntries: 26,
  minReal: 0,
  minTests: 26,
  // Decision 0064, "A thirty-ninth set": the ground was other projects' test strings only; the families below gave no
  // string in the test files read that earlier fixtures do not hold.
  families: familiesExcept('moonshot', 'cerebras', 'vertex', 'mistral', 'groq', 'xai', 'together', 'fireworks', 'dashscope', 'litellm', 'llama.cpp', 'azure', 'vllm', 'lm studio', 'ollama'),
  untouched: '26 of 26: no real bodies, tests 26 of 26, token figures 10 of 14',
  untouchedWrong: 3,
});
