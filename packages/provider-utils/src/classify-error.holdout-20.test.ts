import twentiethSet from './__fixtures__/provider-errors-holdout-20.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentiethSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twentieth held-out set (issue 14: error strings other projects’ test suites feed their retry and error-message logic — promptfoo, LibreChat — none in any earlier fixture, measured untouched)',
  minEntries: 33,
  minReal: 0,
  minTests: 33,
  // Decision 0064, "A twentieth set": test-suite strings only, from two projects no earlier set drew on; they name
  // Gemini, Vertex AI, Azure, Anthropic, OpenAI and an OpenAI-compatible gateway, no other family of the issue.
  families: familiesExcept(
    'moonshot',
    'cerebras',
    'bedrock',
    'deepseek',
    'mistral',
    'groq',
    'xai',
    'together',
    'fireworks',
    'dashscope',
    'litellm',
    'llama.cpp',
    'openrouter',
    'ollama',
    'vllm',
    'lm studio',
  ),
  untouched: '30 of 33: real 0 of 0, tests 30 of 33 (90.9%), token figures 0 of 0',
  untouchedWrong: 3,
});
