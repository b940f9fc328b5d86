import { fixtureReader } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { contextFromArguments, type LlamaCppModelsResponse, type LlamaCppProps, llamacppWindow } from './llamacpp-window.ts';

const { json: fixtureJson } = fixtureReader(import.meta.url);

const single = fixtureJson<LlamaCppModelsResponse>('v1-models-single.json').data?.[0];
const router = fixtureJson<LlamaCppModelsResponse>('v1-models-router.json').data ?? [];
const props = fixtureJson<LlamaCppProps>('props-single.json');

describe('llamacppWindow', () => {
  it("takes a slot's n_ctx from /props: the limit one request meets", () => {
    expect(llamacppWindow({ props, model: single, defaultContextWindow: 4096 })).toEqual({ contextWindow: 8192, basis: 'props', trainedContextLength: 40_960 });
  });

  it('reads the top-level n_ctx of older builds, and the --n-predict the server caps output at', () => {
    expect(llamacppWindow({ props: { n_ctx: 2048 }, defaultContextWindow: 4096 })).toEqual({ contextWindow: 2048, basis: 'props' });
    expect(llamacppWindow({ props: fixtureJson<LlamaCppProps>('props-router-gemma.json'), defaultContextWindow: 4096 })).toMatchObject({ contextWindow: 8192, maxOutputTokens: 2048 });
  });

  it('falls back to meta.n_ctx, then to the arguments a router starts the model with, then to a capped default', () => {
    expect(llamacppWindow({ model: { id: 'm', meta: { n_ctx: 12_288, n_ctx_train: 40_960 } }, defaultContextWindow: 4096 })).toMatchObject({ contextWindow: 12_288, basis: 'meta' });
    expect(llamacppWindow({ model: router[1], defaultContextWindow: 4096 })).toEqual({ contextWindow: 32_768, basis: 'arguments' });
    expect(llamacppWindow({ model: { id: 'm', meta: { n_ctx_train: 2048 } }, defaultContextWindow: 4096 })).toEqual({ contextWindow: 2048, basis: 'assumed', trainedContextLength: 2048 });
    expect(llamacppWindow({ defaultContextWindow: 4096 })).toEqual({ contextWindow: 4096, basis: 'assumed' });
  });
});

describe('contextFromArguments', () => {
  it('divides --ctx-size among --parallel slots, in every spelling of the flags', () => {
    expect(contextFromArguments(['llama-server', '--ctx-size', '16384', '-np', '2'])).toBe(8192);
    expect(contextFromArguments(['llama-server', '-c', '32768', '--parallel=4'])).toBe(8192);
    expect(contextFromArguments(['llama-server', '-ctx', '4096'])).toBe(4096);
  });

  it('reads --ctx-size 0 as the trained length, and says nothing when the arguments do not', () => {
    expect(contextFromArguments(['llama-server', '--ctx-size=0'], 65_536)).toBe(65_536);
    expect(contextFromArguments(['llama-server', '--ctx-size=0'])).toBeUndefined();
    expect(contextFromArguments(['llama-server', '-ngl', '99'])).toBeUndefined();
    expect(contextFromArguments(['llama-server', '-c', 'lots'])).toBeUndefined();
    expect(contextFromArguments(null)).toBeUndefined();
  });
});
