import { describe, expect, it } from 'vitest';
import { catalogFromModelsDev, modelCatalog, modelsDevCatalog } from './model-catalog.ts';
import { parseDuration, retryAfterMs } from './retry-after.ts';

describe('modelCatalog', () => {
  const lookup = modelCatalog({
    'gpt-4': { contextWindow: 8_192 },
    'gpt-4o': { contextWindow: 128_000, maxOutputTokens: 16_384 },
    'gpt-4o-mini': { contextWindow: 128_000, maxOutputTokens: 16_384 },
    'claude-3-5-sonnet': { contextWindow: 200_000 },
  });

  it('matches dated snapshots, prefixes, case and longer ids of a family', () => {
    expect(lookup('gpt-4o-2024-08-06')?.contextWindow).toBe(128_000);
    expect(lookup('openai/GPT-4o')?.contextWindow).toBe(128_000);
    expect(lookup('claude-3-5-sonnet-20241022')?.contextWindow).toBe(200_000);
    expect(lookup('claude-3-5-sonnet-latest')?.contextWindow).toBe(200_000);
    expect(lookup('gpt-4-0613')?.contextWindow).toBe(8_192);
    expect(lookup('gpt-4o-mini-search-preview')).toEqual({ contextWindow: 128_000, maxOutputTokens: 16_384 });
  });

  it('does not match across a family boundary, and knows nothing of unknown models', () => {
    expect(lookup('gpt-4o')?.contextWindow).toBe(128_000); // not gpt-4's 8K
    expect(lookup('gpt-5')).toBeUndefined();
    expect(lookup('my-fine-tune')).toBeUndefined();
  });

  it('reads models.dev tables, skipping models without a context limit', () => {
    const entries = catalogFromModelsDev(
      { models: { a: { limit: { context: 1_000, output: 100 } }, b: { limit: { context: 0 } }, c: {} } },
      { models: { a: { limit: { context: 5 } }, d: { limit: { context: 2_000 } } } },
    );
    expect(entries).toEqual({ a: { contextWindow: 1_000, maxOutputTokens: 100 }, d: { contextWindow: 2_000 } });
  });

  it('looks models.dev tables up as a catalog, snapshots and prefixes included', () => {
    const lookup = modelsDevCatalog({ models: { 'gpt-4o': { limit: { context: 128_000, output: 16_384 } } } }, { models: { 'deepseek-chat': { limit: { context: 65_536 } } } });
    expect(lookup('openai/gpt-4o-2024-08-06')).toEqual({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(lookup('deepseek-chat')).toEqual({ contextWindow: 65_536 });
    expect(lookup('unknown')).toBeUndefined();
  });
});

describe('retry-after', () => {
  it('parses the durations providers write', () => {
    expect(parseDuration('20')).toBe(20_000);
    expect(parseDuration('644ms')).toBe(644);
    expect(parseDuration('6m0s')).toBe(360_000);
    expect(parseDuration('1h2m3.5s')).toBe(3_723_500);
    expect(parseDuration('soon')).toBeUndefined();
  });

  it('reads retry-after as seconds or a date, retry-after-ms first', () => {
    expect(retryAfterMs({ 'retry-after-ms': '150', 'retry-after': '9' })).toBe(150);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }), '', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(30_000);
    expect(retryAfterMs({}, 'Please try again in 9.816s.')).toBe(9_816);
    expect(retryAfterMs({}, 'nothing here')).toBeUndefined();
  });
});

describe('modelCatalog over dated snapshots', () => {
  it('answers for the family name with the latest snapshot', () => {
    const lookup = modelCatalog({
      'claude-3-5-sonnet-20240620': { contextWindow: 200_000, maxOutputTokens: 4_096 },
      'claude-3-5-sonnet-20241022': { contextWindow: 200_000, maxOutputTokens: 8_192 },
    });
    expect(lookup('claude-3-5-sonnet-latest')).toEqual({ contextWindow: 200_000, maxOutputTokens: 8_192 });
    expect(lookup('claude-3-5-sonnet-20240620')).toEqual({ contextWindow: 200_000, maxOutputTokens: 4_096 });
  });
});
