import fiftySeventhSet from './__fixtures__/provider-errors-holdout-57.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftySeventhSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-seventh held-out set (issue 14: other projects’ test strings from agents, routers and SDKs, measured untouched)',
  minEntries: 33,
  minReal: 3,
  minTests: 30,
  // Decision 0064, "A fifty-seventh set": strings other projects' test suites feed their own error handling. Their files
  // named Anthropic, OpenAI, Gemini, Bedrock, Ollama, OpenRouter, Groq and gateways (MiniMax, Z.ai, Copilot, iFlow); every
  // candidate found for the other families came from a file an earlier set cites or repeated an earlier fixture.
  families: familiesExcept('moonshot', 'cerebras', 'vertex', 'deepseek', 'mistral', 'xai', 'together', 'fireworks', 'dashscope', 'litellm', 'llama.cpp', 'azure', 'vllm', 'lm studio'),
  untouched: '28 of 33: real 1 of 3, tests 27 of 30, token figures 6 of 6 (four entries added after the first measure, measured before any further change)',
  untouchedWrong: 5,
});
