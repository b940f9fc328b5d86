import { fixtureReader } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { type LmStudioModelsResponse, type LmStudioV1ModelsResponse, lmstudioWindow } from './lmstudio-window.ts';

const { json: fixtureJson } = fixtureReader(import.meta.url);

const v0 = fixtureJson<LmStudioModelsResponse>('api-v0-models.json');
const v1 = fixtureJson<LmStudioV1ModelsResponse>('api-v1-models.json');

describe('lmstudioWindow', () => {
  it('takes the loaded context length over the maximum while the model is loaded', () => {
    expect(lmstudioWindow({ model: 'qwen3-8b', models: v0, unloadedContextLength: 4096 })).toEqual({ contextWindow: 16_384, basis: 'loaded', maxContextLength: 40_960 });
  });

  it('assumes the just-in-time load context for a model not loaded, capped at its maximum', () => {
    expect(lmstudioWindow({ model: 'meta-llama-3.1-8b-instruct', models: v0, unloadedContextLength: 4096 })).toEqual({ contextWindow: 4096, basis: 'not-loaded', maxContextLength: 131_072 });
    expect(lmstudioWindow({ model: 'meta-llama-3.1-8b-instruct', models: v0, unloadedContextLength: 32_768 })?.contextWindow).toBe(32_768);
    expect(lmstudioWindow({ model: 'smollm2-360m-instruct', models: v0, unloadedContextLength: 4096 })?.contextWindow).toBe(2048);
  });

  it('reads the v1 list: the context of the loaded instance asked for, or of the first one', () => {
    expect(lmstudioWindow({ model: 'qwen/qwen3-8b:2', models: v1, unloadedContextLength: 4096 })).toMatchObject({ contextWindow: 32_768, basis: 'loaded' });
    expect(lmstudioWindow({ model: 'qwen/qwen3-8b', models: v1, unloadedContextLength: 4096 })).toMatchObject({ contextWindow: 16_384, basis: 'loaded' });
    expect(lmstudioWindow({ model: 'meta-llama-3.1-8b-instruct', models: v1, unloadedContextLength: 4096 })).toMatchObject({ contextWindow: 4096, basis: 'not-loaded' });
  });

  it('matches ids without case, without an instance suffix or a publisher, most exact first', () => {
    expect(lmstudioWindow({ model: 'Qwen3-8B', models: v0, unloadedContextLength: 4096 })?.contextWindow).toBe(16_384);
    expect(lmstudioWindow({ model: 'qwen/qwen3-8b', models: v0, unloadedContextLength: 4096 })?.contextWindow).toBe(16_384);
    expect(lmstudioWindow({ model: 'qwen3-8b', models: v1, unloadedContextLength: 4096 })?.contextWindow).toBe(16_384);
  });

  it('knows nothing of a model it does not list', () => {
    expect(lmstudioWindow({ model: 'mistral-7b', models: v0, unloadedContextLength: 4096 })).toBeUndefined();
    expect(lmstudioWindow({ model: 'mistral-7b', models: { data: null }, unloadedContextLength: 4096 })).toBeUndefined();
  });
});
