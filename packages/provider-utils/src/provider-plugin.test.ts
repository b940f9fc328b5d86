import { memoryStore } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { apiKeyFrom } from './api-key.ts';
import { createProviderPlugin } from './provider-plugin.ts';

function make(store = memoryStore()) {
  return createProviderPlugin({
    id: 'host',
    windows: { store, catalog: (model) => (model === 'known' ? { contextWindow: 100_000 } : undefined) },
    usage: (response) => ({ inputTokens: (response as { usage: { input: number } }).usage.input }),
    complete: async (model, { system }) => `${model} summarized with ${system}`,
  });
}

describe('createProviderPlugin', () => {
  it('is a v1 provider plugin whose windows come per model', async () => {
    const provider = make();
    expect(provider).toMatchObject({ specificationVersion: 'v1', kind: 'provider', id: 'host' });
    expect(await provider.contextWindow('known')).toEqual({ contextWindow: 100_000, source: 'catalog' });
    expect(await provider.contextWindow('other')).toEqual({ contextWindow: 32_768, source: 'default' });
  });

  it('returns no usage for a response of another shape instead of throwing', () => {
    expect(make().usage({ usage: { input: 12 } })).toEqual({ inputTokens: 12 });
    expect(make().usage(null)).toBeUndefined();
  });

  it('learns a stated limit from an overflow of a given model, and only then', async () => {
    const store = memoryStore();
    const provider = make(store);
    const body = "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens.";
    const { classification, limits } = await provider.learnFromError('known', { status: 400, body });
    expect(classification.kind).toBe('context_overflow');
    expect(limits).toEqual({ contextWindow: 65_536, source: 'learned' });
    expect(await make(store).contextWindow('known')).toEqual({ contextWindow: 65_536, source: 'learned' });
    expect((await provider.learnFromError('other', { status: 429, body: 'slow down' })).limits).toBeUndefined();
    expect(await provider.contextWindow('other')).toMatchObject({ source: 'default' });
  });

  it('learns in the background when classifyError is given the model', async () => {
    const provider = make();
    expect(provider.classifyError({ status: 400, body: 'prompt is too long: 9000 tokens > 8192 maximum', model: 'other' }).kind).toBe('context_overflow');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await provider.contextWindow('other')).toEqual({ contextWindow: 8_192, source: 'learned' });
  });

  it('learns in the background when classifyError is told the model, as the engine does', async () => {
    const provider = make();
    const overflow = { status: 400, body: 'prompt is too long: 9000 tokens > 8192 maximum' };
    expect(provider.classifyError(overflow)).toMatchObject({ kind: 'context_overflow', limitTokens: 8_192 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await provider.contextWindow('other')).toEqual({ contextWindow: 32_768, source: 'default' });
    expect(provider.classifyError(overflow, { model: 'other' })).toMatchObject({ kind: 'context_overflow', provider: 'host' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await provider.contextWindow('other')).toEqual({ contextWindow: 8_192, source: 'learned' });
  });

  it('refuses an id that would mix up store records or summarizer ids', () => {
    for (const id of ['', 'two words', 'a:b', '../x']) {
      expect(() => createProviderPlugin({ id, windows: {}, usage: () => undefined })).toThrow(
        `[ctxkit:provider-utils] id must be a name of letters, digits, '.', '_' or '-', got ${JSON.stringify(id)}`,
      );
    }
  });

  it('makes a summarizer per model, with the window once known', async () => {
    const summarizer = make().summarizer('known');
    expect(summarizer.id).toBe('host:known');
    expect(await summarizer.summarize({ messages: [{ role: 'user', content: 'hi' }], instructions: 'the template' })).toBe('known summarized with the template');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(summarizer.contextWindow).toBe(100_000);
    expect(() => make().summarizer('')).toThrow('[ctxkit:host] summarizer(model) needs a model id, got ""');
  });
});

describe('apiKeyFrom', () => {
  it('prefers the given key, then the environment, else names both', () => {
    expect(apiKeyFrom('k', 'CTXKIT_TEST_KEY', 'p')).toBe('k');
    process.env.CTXKIT_TEST_KEY = 'from-env';
    expect(apiKeyFrom(undefined, 'CTXKIT_TEST_KEY', 'p')).toBe('from-env');
    delete process.env.CTXKIT_TEST_KEY;
    expect(() => apiKeyFrom(undefined, 'CTXKIT_TEST_KEY', 'p')).toThrow('[ctxkit:p] no API key: pass apiKey or set CTXKIT_TEST_KEY');
  });

  it('reads the variables in order, and names all of them when none is set', () => {
    process.env.CTXKIT_TEST_OTHER_KEY = 'second';
    expect(apiKeyFrom(undefined, ['CTXKIT_TEST_KEY', 'CTXKIT_TEST_OTHER_KEY'], 'p')).toBe('second');
    process.env.CTXKIT_TEST_KEY = 'first';
    expect(apiKeyFrom(undefined, ['CTXKIT_TEST_KEY', 'CTXKIT_TEST_OTHER_KEY'], 'p')).toBe('first');
    delete process.env.CTXKIT_TEST_KEY;
    delete process.env.CTXKIT_TEST_OTHER_KEY;
    expect(() => apiKeyFrom(undefined, ['CTXKIT_TEST_KEY', 'CTXKIT_TEST_OTHER_KEY'], 'p')).toThrow('[ctxkit:p] no API key: pass apiKey or set CTXKIT_TEST_KEY (or CTXKIT_TEST_OTHER_KEY)');
  });
});

describe('createProviderPlugin: errors that cannot be read', () => {
  it('classifies an error whose fields throw when read as other, and learns nothing, instead of throwing from the catch block', async () => {
    const provider = createProviderPlugin({ id: 'p', windows: {}, usage: () => undefined });
    const getter = {
      get status(): number {
        throw new Error('getter boom');
      },
    };
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('proxy boom');
        },
      },
    );
    for (const error of [getter, proxy]) {
      expect(provider.classifyError(error, { model: 'm' })).toMatchObject({
        kind: 'other',
        retryable: false,
        fallback: false,
        provider: 'p',
        message: expect.stringMatching(/^\[ctxkit:p\] the error could not be read: (getter|proxy) boom$/),
      });
      expect(await provider.learnFromError('m', error)).toEqual({ classification: expect.objectContaining({ kind: 'other' }) });
    }
  });
});
