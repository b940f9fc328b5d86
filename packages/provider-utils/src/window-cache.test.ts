import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CtxkitError, memoryStore, type StorePlugin } from '@ctxkit/core';
import { fileStore } from '@ctxkit/store';
import { describe, expect, it } from 'vitest';
import { modelCatalog } from './model-catalog.ts';
import { createWindowCache, type DiscoverLimits } from './window-cache.ts';

const catalog = modelCatalog({ 'big-model': { contextWindow: 200_000, maxOutputTokens: 64_000 } });

describe('createWindowCache', () => {
  it('answers configured > discovered > catalog > default, each with its source', async () => {
    const discover: DiscoverLimits = async (model) => (model === 'local' ? { contextWindow: 40_960, maxOutputTokens: 8_192 } : undefined);
    const windows = createWindowCache({ provider: 'p', discover, catalog, configured: { pinned: 12_000 } });
    expect(await windows.resolve('pinned')).toEqual({ contextWindow: 12_000, source: 'configured' });
    expect(await windows.resolve('local')).toEqual({ contextWindow: 40_960, maxOutputTokens: 8_192, source: 'discovered' });
    expect(await windows.resolve('big-model-2025-01-01')).toEqual({ contextWindow: 200_000, maxOutputTokens: 64_000, source: 'catalog' });
    expect(await windows.resolve('nobody-knows')).toEqual({ contextWindow: 32_768, source: 'default' });
  });

  it('keeps a discovered window across a restart, with the discovery endpoint down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-windows-'));
    const first = createWindowCache({ provider: 'ollama', store: fileStore(dir), discover: async () => ({ contextWindow: 40_960 }) });
    expect(await first.resolve('qwen3:8b')).toMatchObject({ contextWindow: 40_960, source: 'discovered' });
    const errors: unknown[] = [];
    const down: DiscoverLimits = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    const second = createWindowCache({ provider: 'ollama', store: fileStore(dir), discover: down, refreshIntervalMs: 0, onError: (error) => errors.push(error) });
    expect(await second.resolve('qwen3:8b')).toMatchObject({ contextWindow: 40_960, source: 'discovered' });
    // a different provider namespace does not see it
    expect(await createWindowCache({ provider: 'vllm', store: fileStore(dir) }).resolve('qwen3:8b')).toMatchObject({ source: 'default' });
  });

  it('does not block on a discovery that hangs; its late answer is used from the next call', async () => {
    let answer: (value: { contextWindow: number }) => void = () => undefined;
    const discover: DiscoverLimits = () => new Promise((resolve) => (answer = resolve));
    const windows = createWindowCache({ provider: 'p', discover, catalog, discoveryTimeoutMs: 30 });
    expect(await windows.resolve('big-model')).toMatchObject({ contextWindow: 200_000, source: 'catalog' });
    // while the first question is still open, later calls answer at once
    expect(await windows.resolve('big-model')).toMatchObject({ source: 'catalog' });
    answer({ contextWindow: 131_072 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await windows.resolve('big-model')).toMatchObject({ contextWindow: 131_072, source: 'discovered' });
  });

  it('abandons a discovery past its deadline and asks again on a later call', async () => {
    let calls = 0;
    const discover: DiscoverLimits = (_model, { signal }) => {
      calls++;
      return calls === 1 ? new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) : Promise.resolve({ contextWindow: 8_192 });
    };
    const errors: unknown[] = [];
    const windows = createWindowCache({ provider: 'p', discover, discoveryTimeoutMs: 10, discoveryDeadlineMs: 40, onError: (error) => errors.push(error) });
    expect(await windows.resolve('m')).toMatchObject({ source: 'default' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(errors).toHaveLength(1);
    expect(await windows.resolve('m')).toMatchObject({ contextWindow: 8_192, source: 'discovered' });
  });

  it('refreshes a known window in the background and follows a reload', async () => {
    let served = 4_096;
    let time = 0;
    const windows = createWindowCache({ provider: 'p', discover: async () => ({ contextWindow: served }), refreshIntervalMs: 1_000, now: () => time });
    expect((await windows.resolve('m')).contextWindow).toBe(4_096);
    served = 32_768;
    time = 500;
    expect((await windows.resolve('m')).contextWindow).toBe(4_096);
    time = 1_500;
    await windows.resolve('m'); // starts the refresh
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await windows.resolve('m')).contextWindow).toBe(32_768);
  });

  it('learns the real limit from an overflow, persists it, and drops it when discovery changes', async () => {
    const store = memoryStore();
    let served = 262_000;
    const windows = createWindowCache({ provider: 'openrouter', store, discover: async () => ({ contextWindow: served, maxOutputTokens: 32_000 }), refreshIntervalMs: 0 });
    await windows.resolve('some/model');
    expect(await windows.learn('some/model', { kind: 'rate_limit', limitTokens: 10_000 })).toBeUndefined();
    expect(await windows.learn('some/model', { kind: 'context_overflow' })).toBeUndefined();
    expect(await windows.learn('some/model', { kind: 'context_overflow', limitTokens: 16_000 })).toEqual({ contextWindow: 16_000, maxOutputTokens: 16_000, source: 'learned' });
    const again = createWindowCache({ provider: 'openrouter', store });
    expect(await again.resolve('some/model')).toMatchObject({ contextWindow: 16_000, source: 'learned' });
    // same advertised window: the lesson holds
    await windows.resolve('some/model');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await windows.resolve('some/model')).toMatchObject({ source: 'learned' });
    served = 131_072;
    await new Promise((resolve) => setTimeout(resolve, 5)); // the refresh started above ends with the old answer
    await windows.resolve('some/model');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await windows.resolve('some/model')).toMatchObject({ contextWindow: 131_072, source: 'discovered' });
  });

  it('still answers when the store fails, and says so through onError', async () => {
    const broken: StorePlugin = {
      specificationVersion: 'v1',
      kind: 'store',
      id: 'broken',
      getItem: async () => {
        throw new CtxkitError({ code: 'STORE_ERROR', message: 'down' });
      },
      setItem: async () => {
        throw new CtxkitError({ code: 'STORE_ERROR', message: 'down' });
      },
      removeItem: async () => undefined,
    };
    const errors: unknown[] = [];
    const windows = createWindowCache({ provider: 'p', store: broken, discover: async () => ({ contextWindow: 65_536 }), onError: (error) => errors.push(error) });
    expect(await windows.resolve('m')).toMatchObject({ contextWindow: 65_536, source: 'discovered' });
    expect(errors.length).toBeGreaterThan(0);
  });

  it('rejects an empty model id and bad options with INVALID_ARGUMENT', async () => {
    await expect(createWindowCache({ provider: 'p' }).resolve('')).rejects.toThrow('[ctxkit:p] contextWindow(model) needs a model id, got ""');
    expect(() => createWindowCache({ provider: 'p', defaultWindow: 0 })).toThrow(/defaultWindow must be a finite number above zero/);
  });
});
