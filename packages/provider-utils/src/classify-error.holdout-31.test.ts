import thirtyFirstSet from './__fixtures__/provider-errors-holdout-31.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = thirtyFirstSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the thirty-first held-out set (issue 14: live Bedrock bodies the Vercel AI SDK replays, and error bodies its Bedrock, Groq, gateway and provider-utils tests build, none in any earlier fixture whole, measured untouched)',
  minEntries: 20,
  minReal: 7,
  minTests: 13,
  // Decision 0064, "A thirty-first set": the files read held only Bedrock, Groq, gateway, Anthropic-overload and OpenAI-on-Bedrock wordings no earlier fixture holds whole.
  families: familiesExcept(
    'moonshot',
    'cerebras',
    'vertex',
    'deepseek',
    'mistral',
    'xai',
    'together',
    'fireworks',
    'dashscope',
    'litellm',
    'llama.cpp',
    'gemini',
    'azure',
    'openrouter',
    'ollama',
    'vllm',
    'lm studio',
  ),
  untouched: '20 of 20: real 7 of 7, tests 13 of 13 (100%), no token figures stated; one stated retryable flag wrong',
  untouchedWrong: 1,
});
