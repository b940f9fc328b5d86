import { describe, expect, it } from 'vitest';
import sixthSet from './__fixtures__/provider-errors-holdout-6.json' with { type: 'json' };
import { expectClassifiedAsStated, type HeldOutEntry, heldOutFigures, heldOutName } from './__fixtures__/provider-error-entry.ts';

const entries = sixthSet as HeldOutEntry[];

describe('classifyError on the sixth held-out set (issue 14: providers’ documented error bodies and other projects’ classifier tests, none in any earlier fixture, measured untouched)', () => {
  it('holds sourced real bodies and other projects’ test strings over the families the issue names', () => {
    expect(entries.length).toBeGreaterThanOrEqual(50);
    expect(entries.every((entry) => entry.source.length > 10)).toBe(true);
    expect(entries.filter((entry) => entry.origin === 'real').length).toBeGreaterThanOrEqual(25);
    expect(entries.filter((entry) => entry.origin === 'tests').length).toBeGreaterThanOrEqual(30);
    const providers = entries.map((entry) => entry.provider.toLowerCase()).join('\n');
    // DeepSeek, Groq, Together, Fireworks, Ollama, vLLM and LM Studio strings found for this set were all
    // already in the earlier fixtures (80% or more of their text), so the set has none of them (decision 0064).
    const families = ['moonshot', 'cerebras', 'bedrock', 'vertex', 'mistral', 'xai', 'dashscope', 'litellm', 'llama.cpp', 'gateway'];
    for (const family of [...families, 'openai', 'anthropic', 'gemini', 'azure', 'openrouter']) {
      expect(providers, family).toContain(family);
    }
  });

  it.each(entries.map((entry, index) => [heldOutName(entry, index), entry] as const).filter(([, entry]) => entry.untouched_answer === undefined))('%s', (_name, entry) => {
    expectClassifiedAsStated(entry);
  });

  it('untouched, classifies 50 of 57 kinds right: real bodies 24 of 26, test strings 26 of 31 (83.9%), token figures 4 of 5: the goal is not met', () => {
    const result = heldOutFigures(entries);
    expect(result).toMatchObject({ kindRight: 50, realRight: 24, real: 26, testsRight: 26, tests: 31, tokenFiguresRight: 4, tokenFigures: 5 });
    expect(entries.filter((entry) => entry.untouched_answer !== undefined)).toHaveLength(11);
  });
});
