import fourteenthSet from './__fixtures__/provider-errors-holdout-14.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fourteenthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the fourteenth held-out set (issue 14: vendor forums and documented error references, project notes and logs, and other projects’ tests — none in any earlier fixture, measured untouched)',
  minEntries: 36,
  minReal: 15,
  minTests: 21,
  // Every Vertex, Groq, xAI, Fireworks, LiteLLM, Azure and LM Studio string found shared a 60-character stretch with an
  // earlier fixture (Vertex's 429 and provisioned-throughput messages, Groq's TPD 429 tail, xAI's "maximum prompt length"
  // and credits wordings, Fireworks' "Model not found, inaccessible", LiteLLM's ContextWindowExceededError prefix, the
  // Azure S0 429, LM Studio's "tokens to keep" body), so the set holds none (decision 0064).
  families: familiesExcept('vertex', 'groq', 'xai', 'fireworks', 'litellm', 'azure', 'lm studio'),
  untouched: '33 of 36: real 15 of 15, tests 18 of 21, token figures 23 of 24',
  untouchedWrong: 5,
});
