import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CtxkitError, memoryStore, type StorePlugin } from '@ctxkit/core';
import { fileStore } from '@ctxkit/store';
import { describe, expect, it } from 'vitest';
import { modelCatalog } from './model-catalog.ts';
import { createWindowCache, type DiscoverLimits, discoveredLimits } from './window-cache.ts';

const catalog = modelCatalog({ 'big-model': { contextWindow: 200_000, maxOutputTokens: 64_000 } });

describe('createWindowCache: sources, restarts and discovery', () => {
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
    // a later call joins the open question, waits no longer than its own bound, and answers from what is known
    expect(await windows.resolve('big-model')).toMatchObject({ source: 'catalog' });
    answer({ contextWindow: 131_072 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await windows.resolve('big-model')).toMatchObject({ contextWindow: 131_072, source: 'discovered' });
  });

  it('lets a lookup join a discovery another call started, within its own bound, without asking twice', async () => {
    let calls = 0;
    let answer: (value: { contextWindow: number }) => void = () => undefined;
    const discover: DiscoverLimits = () => {
      calls++;
      return new Promise((resolve) => (answer = resolve));
    };
    const windows = createWindowCache({ provider: 'p', discover, discoveryTimeoutMs: 2_000 });
    const first = windows.resolve('m');
    const joined = windows.resolve('m');
    setTimeout(() => answer({ contextWindow: 40_960 }), 20);
    expect(await joined).toEqual({ contextWindow: 40_960, source: 'discovered' });
    expect(await first).toEqual({ contextWindow: 40_960, source: 'discovered' });
    expect(calls).toBe(1);
  });

  it('with discoveryTimeoutMs 0, never waits: not to start a discovery, nor to join one', async () => {
    let answer: (value: { contextWindow: number }) => void = () => undefined;
    const windows = createWindowCache({ provider: 'p', discover: () => new Promise((resolve) => (answer = resolve)), discoveryTimeoutMs: 0 });
    expect(await windows.resolve('m')).toEqual({ contextWindow: 32_768, source: 'default' });
    expect(await windows.resolve('m')).toEqual({ contextWindow: 32_768, source: 'default' });
    answer({ contextWindow: 8_192 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await windows.resolve('m')).toEqual({ contextWindow: 8_192, source: 'discovered' });
  });

  it('hands discovery what an earlier discovery stored, so a weaker answer can keep it', async () => {
    const seen: unknown[] = [];
    const store = memoryStore();
    const first = createWindowCache({ provider: 'p', store, discover: async () => ({ contextWindow: 16_384, maxOutputTokens: 4_096 }) });
    await first.resolve('m');
    const second = createWindowCache({
      provider: 'p',
      store,
      discover: async (_model, { stored }) => {
        seen.push(stored);
        return stored ? { contextWindow: stored.contextWindow } : { contextWindow: 4_096 };
      },
    });
    expect(await second.refresh('m')).toEqual({ contextWindow: 16_384, source: 'discovered' });
    expect(seen).toEqual([{ contextWindow: 16_384, maxOutputTokens: 4_096, at: expect.any(Number) }]);
    expect(await second.refresh('other')).toEqual({ contextWindow: 4_096, source: 'discovered' });
    expect(seen[1]).toBeUndefined();
  });
});

describe('createWindowCache: keys, deadlines, refresh, learning and failures', () => {
  it('encodes model ids in store keys: a path-like id persists in a file store, and ids a store would cut stay apart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-windows-'));
    const windows = new Map<string, number>([
      ['../models/Qwen3-8B-Q4_K_M.gguf', 8_192],
      ['model?variant=a', 16_384],
      ['model?variant=b', 32_768],
      ['org/model:Q4_K_M', 65_536],
    ]);
    const errors: unknown[] = [];
    const first = createWindowCache({ provider: 'llamacpp', store: fileStore(dir), discover: async (model) => ({ contextWindow: windows.get(model) ?? 1 }), onError: (error) => errors.push(error) });
    for (const model of windows.keys()) await first.resolve(model);
    expect(errors).toEqual([]);
    expect(readdirSync(dir)).toEqual(['windows']);
    expect(first.keyOf('../models/Qwen3-8B-Q4_K_M.gguf')).toBe('windows:llamacpp:%2E%2E%2Fmodels%2FQwen3-8B-Q4_K_M%2Egguf');
    const restarted = createWindowCache({ provider: 'llamacpp', store: fileStore(dir) });
    for (const [model, contextWindow] of windows) expect(await restarted.resolve(model), model).toEqual({ contextWindow, source: 'discovered' });
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

describe('createWindowCache: what the store and the deadline hand back', () => {
  it('distrusts a stored record it cannot read: a bad window is dropped, a missing or future time is asked again, and onError says which key', async () => {
    const store = memoryStore();
    const errors: unknown[] = [];
    let served = 32_768;
    const windows = createWindowCache({ provider: 'vllm', store, discover: async () => ({ contextWindow: served }), refreshIntervalMs: 60_000, onError: (error) => errors.push(error) });
    const stale = { noTime: { discovered: { contextWindow: 16_384 } }, future: { discovered: { contextWindow: 16_384, at: Date.now() + 86_400_000 } } };
    for (const [model, record] of Object.entries(stale)) await store.setItem(windows.keyOf(model), record);
    // a window stored without a usable time is used once, then asked for again (not kept forever)
    for (const model of Object.keys(stale)) expect(await windows.resolve(model)).toEqual({ contextWindow: 16_384, source: 'discovered' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const model of Object.keys(stale)) expect(await windows.resolve(model)).toEqual({ contextWindow: 32_768, source: 'discovered' });

    const unreadable = { text: '16384', list: [1, 2], stringWindow: { discovered: { contextWindow: '16384', at: 1 } }, negative: { discovered: { contextWindow: -5, at: 1 } } };
    for (const [model, record] of Object.entries(unreadable)) await store.setItem(windows.keyOf(model), record);
    served = 40_960;
    for (const model of Object.keys(unreadable)) expect(await windows.resolve(model)).toEqual({ contextWindow: 40_960, source: 'discovered' });
    await store.setItem(windows.keyOf('badLesson'), { discovered: { contextWindow: 40_960, at: Date.now() }, learned: { contextWindow: 'x', at: 1 } });
    expect(await windows.resolve('badLesson')).toEqual({ contextWindow: 40_960, source: 'discovered' });
    const messages = errors.map((error) => (CtxkitError.isInstance(error, 'STORE_ERROR') ? error.message : String(error)));
    expect(messages).toHaveLength(5);
    expect(messages[0]).toMatch(/^\[ctxkit:vllm\] stored window record windows:vllm:text ignored: a string, not a record$/);
    expect(messages).toContain(`[ctxkit:vllm] stored window record ${windows.keyOf('badLesson')} ignored in part: learned window "x", not a positive number`);
  });

  it('names the provider and model, typed as a timeout, when a discovery passes its deadline', async () => {
    const errors: unknown[] = [];
    const hanging: DiscoverLimits = () => new Promise(() => undefined);
    const windows = createWindowCache({ provider: 'openai', discover: hanging, discoveryDeadlineMs: 30, onError: (error) => errors.push(error) });
    expect(await windows.refresh('gpt-4o')).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(CtxkitError.isInstance(errors[0], 'TIMEOUT')).toBe(true);
    expect((errors[0] as Error).message).toBe('[ctxkit:openai] discovery of gpt-4o gave no answer within 30 ms');
  });
});

describe('discoveredLimits', () => {
  it('keeps positive numbers only: no window, no limits; a missing output limit is left out', () => {
    expect(discoveredLimits(200_000, 64_000)).toEqual({ contextWindow: 200_000, maxOutputTokens: 64_000 });
    expect(discoveredLimits(200_000, null)).toEqual({ contextWindow: 200_000 });
    expect(discoveredLimits(200_000, 0)).toEqual({ contextWindow: 200_000 });
    expect(discoveredLimits(null, 64_000)).toBeUndefined();
    expect(discoveredLimits(0)).toBeUndefined();
    expect(discoveredLimits('131072')).toBeUndefined();
    expect(discoveredLimits(Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});
