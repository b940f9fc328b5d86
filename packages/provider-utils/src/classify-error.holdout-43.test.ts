import fortyThirdSet from './__fixtures__/provider-errors-holdout-43.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fortyThirdSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the forty-third held-out set (issue 14: other projects’ tests in Python, TypeScript, JavaScript, Go, Rust, Kotlin, Java and Swift, and recorded bodies, measured untouched)',
  minEntries: 40,
  minReal: 9,
  minTests: 31,
  // Decision 0064, "A forty-third set": the brief's ground was DeepSeek, LM Studio, Cerebras, Bedrock, llama.cpp,
  // Anthropic, Gemini, vLLM, OpenAI and the bare-413 gateways; the families below gave no uncited string in what was read.
  families: familiesExcept('moonshot', 'vertex', 'mistral', 'groq', 'xai', 'together', 'fireworks', 'litellm', 'azure', 'ollama'),
  untouched: '38 of 40: real 9 of 9, tests 29 of 31, token figures 36 of 41',
  untouchedWrong: 5,
});
