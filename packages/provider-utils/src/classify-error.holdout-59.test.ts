import fiftyNinthSet from './__fixtures__/provider-errors-holdout-59.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftyNinthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-ninth held-out set (issue 14: other projects’ test strings from Java, Kotlin, C#, Elixir, Zig, C, Rust, Go and Python suites, measured untouched)',
  minEntries: 38,
  minReal: 0,
  minTests: 38,
  // Decision 0064, "A fifty-ninth set": strings other projects' test suites feed their own error handling, in the
  // ecosystems earlier sets used least. Their files named OpenAI, Anthropic, Bedrock, vLLM, Ollama and gateways; no
  // uncited test string was found for the other families.
  families: familiesExcept(
    'moonshot',
    'cerebras',
    'vertex',
    'deepseek',
    'mistral',
    'groq',
    'xai',
    'together',
    'fireworks',
    'dashscope',
    'litellm',
    'llama.cpp',
    'gemini',
    'azure',
    'openrouter',
    'lm studio',
  ),
  untouched: '35 of 38: real 0 of 0, tests 35 of 38, token figures 9 of 12',
  untouchedWrong: 5,
});
