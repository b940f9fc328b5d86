import twentyThirdSet from './__fixtures__/provider-errors-holdout-23.json' with { type: 'json' };
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = twentyThirdSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twenty-third held-out set (issue 14: live bodies quoted in Japanese and Chinese posts, a small project’s issue and committed run logs, and other projects’ tests, none in any earlier fixture, measured untouched)',
  minEntries: 26,
  minReal: 9,
  minTests: 17,
  // Decision 0064, "A twenty-third set": its ground was Vertex AI, Bedrock, DeepSeek, Moonshot, Cerebras, DashScope
  // and Mistral as users and logs quote them; Groq, xAI, Together, Fireworks and the local servers gave nothing new.
  families: ['vertex', 'bedrock', 'deepseek', 'moonshot', 'cerebras', 'dashscope', 'mistral', 'openrouter', 'openai', 'gateway'],
  untouched: '24 of 26: real 9 of 9, tests 15 of 17 (88.2%), token figures 2 of 2',
  untouchedWrong: 2,
});
