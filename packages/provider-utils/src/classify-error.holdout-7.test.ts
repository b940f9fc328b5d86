import { describe, expect, it } from 'vitest';
import seventhSet from './__fixtures__/provider-errors-holdout-7.json' with { type: 'json' };
import { expectClassifiedAsStated, type HeldOutEntry, heldOutFigures, heldOutName } from './__fixtures__/provider-error-entry.ts';

const entries = seventhSet as HeldOutEntry[];

describe('classifyError on the seventh held-out set (issue 14: providers’ and gateways’ documented error bodies, issue threads, and other projects’ classifier tests, none in any earlier fixture, measured untouched)', () => {
  it('holds sourced real bodies and other projects’ test strings over the families the issue names', () => {
    expect(entries.length).toBeGreaterThanOrEqual(50);
    expect(entries.every((entry) => entry.source.length > 10)).toBe(true);
    expect(entries.filter((entry) => entry.origin === 'real').length).toBeGreaterThanOrEqual(30);
    expect(entries.filter((entry) => entry.origin === 'tests').length).toBeGreaterThanOrEqual(30);
    const providers = entries.map((entry) => entry.provider.toLowerCase()).join('\n');
    // Every Mistral, xAI, Fireworks and LM Studio string found for this set was already in the earlier fixtures
    // (80% or more of its text), so the set has none of them (decision 0064).
    const families = ['moonshot', 'cerebras', 'bedrock', 'vertex', 'dashscope', 'litellm', 'llama.cpp', 'gateway', 'deepseek', 'groq', 'together', 'ollama', 'vllm'];
    for (const family of [...families, 'openai', 'anthropic', 'gemini', 'azure', 'openrouter']) {
      expect(providers, family).toContain(family);
    }
  });

  it.each(entries.map((entry, index) => [heldOutName(entry, index), entry] as const).filter(([, entry]) => entry.untouched_answer === undefined))('%s', (_name, entry) => {
    expectClassifiedAsStated(entry);
  });

  it('untouched, classifies 52 of 70 kinds right: real bodies 31 of 37, test strings 21 of 33 (63.6%), token figures 5 of 5: the goal is not met', () => {
    const result = heldOutFigures(entries);
    expect(result).toMatchObject({ kindRight: 52, realRight: 31, real: 37, testsRight: 21, tests: 33, tokenFiguresRight: 5, tokenFigures: 5 });
    expect(entries.filter((entry) => entry.untouched_answer !== undefined)).toHaveLength(18);
  });
});
