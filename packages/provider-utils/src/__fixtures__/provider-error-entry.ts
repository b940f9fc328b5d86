import { describe, expect, it } from 'vitest';
import { classifyError, type ProviderErrorClassification } from '../classify-error.ts';

/** What the provider-error fixtures share: a real error string, where it came from, and what it must classify as. */
export interface ProviderErrorEntry {
  provider: string;
  /** The HTTP status it came with; null for a message or body seen without one. */
  status: number | null;
  kind: string;
  body_or_message: string;
  source: string;
  reported_tokens?: number;
  limit_tokens?: number;
  retryable?: boolean;
  fallback?: boolean;
  /** The provider the classifier is told about (`classifyError(error, { provider })`). */
  provider_option?: string;
}

/** Classifies an entry as a caller would hand it over: a bare string, or `{ status, body }`. */
export function classifyEntry(entry: ProviderErrorEntry): ProviderErrorClassification {
  const error = entry.status === null ? entry.body_or_message : { status: entry.status, body: entry.body_or_message };
  return classifyError(error, entry.provider_option ? { provider: entry.provider_option } : {});
}

/** Asserts the kind and every figure and flag the entry states. */
export function expectClassifiedAsStated(entry: ProviderErrorEntry): void {
  const result = classifyEntry(entry);
  expect(result.kind).toBe(entry.kind);
  if (entry.limit_tokens !== undefined) expect(result.limitTokens).toBe(entry.limit_tokens);
  // `input + max_tokens > limit` errors: the count may be the total or the input part.
  if (entry.reported_tokens !== undefined) expect([result.reportedTokens, result.inputTokens]).toContain(entry.reported_tokens);
  if (entry.retryable !== undefined) expect(result.retryable).toBe(entry.retryable);
  if (entry.fallback !== undefined) expect(result.fallback).toBe(entry.fallback);
}

/** An entry of a held-out set (`provider-errors-holdout-4.json` and later): what it adds to a fixture entry. */
export interface HeldOutEntry extends ProviderErrorEntry {
  /** `real`: a body or message quoted from a live failure; `tests`: a string from another project's test suite. */
  origin: 'real' | 'tests';
  /** Shares a 60-character stretch with an entry of the earlier fixtures or the corpus (same family, other numbers). */
  near_existing?: boolean;
  /** Every field the classifier got wrong when the set was first measured, untouched (decision 0064). */
  untouched_answer?: string;
  /** Why an entry is still classified wrong. */
  known_miss?: string;
  note?: string;
}

/** A test name for a held-out entry: its position, origin, provider and the start of its text. */
export function heldOutName(entry: HeldOutEntry, index: number): string {
  return `${index} ${entry.origin} ${entry.provider}: ${entry.body_or_message.replace(/\s+/g, ' ').slice(0, 70)}`;
}

/** The figures the goal is judged on: kinds right overall, for real bodies and for other projects' test strings, and token figures right. */
export function heldOutFigures(entries: readonly HeldOutEntry[]) {
  const kindRight = (entry: HeldOutEntry) => classifyEntry(entry).kind === entry.kind;
  const real = entries.filter((entry) => entry.origin === 'real');
  const tests = entries.filter((entry) => entry.origin === 'tests');
  let tokenFigures = 0;
  let tokenFiguresRight = 0;
  for (const entry of entries) {
    const result = classifyEntry(entry);
    if (entry.limit_tokens !== undefined) {
      tokenFigures++;
      if (result.limitTokens === entry.limit_tokens) tokenFiguresRight++;
    }
    if (entry.reported_tokens !== undefined) {
      tokenFigures++;
      if ([result.reportedTokens, result.inputTokens].includes(entry.reported_tokens)) tokenFiguresRight++;
    }
  }
  return {
    kindRight: entries.filter(kindRight).length,
    realRight: real.filter(kindRight).length,
    testsRight: tests.filter(kindRight).length,
    tokenFiguresRight,
    tokenFigures,
    real: real.length,
    tests: tests.length,
  };
}

/** The provider families issue 14 names, and the hosts it was read against, as held-out sets spell them. */
export const issueFamilies: readonly string[] = [
  'moonshot',
  'cerebras',
  'bedrock',
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
  'gateway',
  'openai',
  'anthropic',
  'gemini',
  'azure',
  'openrouter',
  'ollama',
  'vllm',
  'lm studio',
];

/** {@link issueFamilies} but those a set could not hold (each set's test says why). */
export function familiesExcept(...missing: string[]): string[] {
  return issueFamilies.filter((family) => !missing.includes(family));
}

/** What a held-out set's own test states about it: its size, its families, and what it scored untouched. */
export interface HeldOutSetFacts {
  /** The describe title: which set, and how it was collected. */
  title: string;
  minEntries: number;
  minReal: number;
  minTests: number;
  /** Provider names (lower case) the set's entries must mention. */
  families: readonly string[];
  /** The untouched figures, for the test name: "50 of 57: real 24 of 26, tests 26 of 31, token figures 4 of 5". */
  untouched: string;
  /** How many entries had a field wrong untouched (each keeps `untouched_answer`). */
  untouchedWrong: number;
}

/**
 * The tests every held-out set from the fourth on runs: it holds sourced strings over its families,
 * every entry (but a stated known miss) classifies as stated, and the goal's figures hold: every real
 * body right, at least 95% of other projects' test strings, every token figure.
 */
export function describeHeldOutSet(entries: readonly HeldOutEntry[], facts: HeldOutSetFacts): void {
  describe(facts.title, () => {
    it('holds sourced real bodies and other projects’ test strings over the families the issue names', () => {
      expect(entries.length).toBeGreaterThanOrEqual(facts.minEntries);
      expect(entries.every((entry) => entry.source.length > 10)).toBe(true);
      expect(entries.filter((entry) => entry.origin === 'real').length).toBeGreaterThanOrEqual(facts.minReal);
      expect(entries.filter((entry) => entry.origin === 'tests').length).toBeGreaterThanOrEqual(facts.minTests);
      const providers = entries.map((entry) => entry.provider.toLowerCase()).join('\n');
      for (const family of facts.families) expect(providers, family).toContain(family);
    });

    it.each(entries.map((entry, index) => [heldOutName(entry, index), entry] as const).filter(([, entry]) => entry.known_miss === undefined))('%s', (_name, entry) => {
      expectClassifiedAsStated(entry);
    });

    it(`gets every real body right and at least 95% of the other projects’ test strings (untouched it was ${facts.untouched})`, () => {
      const result = heldOutFigures(entries);
      expect(result.realRight).toBe(result.real);
      expect(result.testsRight).toBeGreaterThanOrEqual(Math.ceil(0.95 * result.tests));
      expect(result.tokenFiguresRight).toBe(result.tokenFigures);
      expect(entries.filter((entry) => entry.untouched_answer !== undefined)).toHaveLength(facts.untouchedWrong);
    });
  });
}
