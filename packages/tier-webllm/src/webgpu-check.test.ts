import { describe, expect, it } from 'vitest';
import { checkWebgpu, type WebgpuAdapter } from './webgpu-check.ts';

const goodAdapter = (overrides: Partial<WebgpuAdapter> = {}): WebgpuAdapter => ({
  features: new Set(['shader-f16']),
  limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 },
  info: { vendor: 'nvidia' },
  ...overrides,
});
const navigatorWith = (adapter: WebgpuAdapter | null, deviceMemory?: number) => ({
  gpu: { requestAdapter: async () => adapter },
  ...(deviceMemory === undefined ? {} : { deviceMemory }),
});

describe('checkWebgpu', () => {
  it('finds a usable adapter and says what it offers', async () => {
    expect(await checkWebgpu({ navigator: navigatorWith(goodAdapter()), requiredFeatures: ['shader-f16'], vramRequiredMB: 945 })).toEqual({
      available: true,
      vendor: 'nvidia',
      features: ['shader-f16'],
      maxStorageBufferBindingSize: 2 ** 30,
    });
  });

  it.each([
    ['no navigator.gpu', {}, /^no WebGPU here: navigator\.gpu is missing/],
    ['no adapter', navigatorWith(null), /^no WebGPU adapter: navigator\.gpu\.requestAdapter\(\) found no GPU/],
    ['a software adapter', navigatorWith(goodAdapter({ isFallbackAdapter: true })), /^only a software WebGPU adapter is available/],
    ['a missing feature', navigatorWith(goodAdapter({ features: new Set() })), /^the WebGPU adapter lacks shader-f16, which this model needs/],
    ['small buffers', navigatorWith(goodAdapter({ limits: { maxBufferSize: 2 ** 27, maxStorageBufferBindingSize: 2 ** 27 } })), /^not enough GPU buffer space: the adapter allows 128 MB buffers/],
    ['too little memory', navigatorWith(goodAdapter(), 0.5), /^not enough memory: the device reports about 0\.5 GiB and the model needs about 945 MB/],
  ])('says why with %s', async (_name, navigator, reason) => {
    const check = await checkWebgpu({ navigator, requiredFeatures: ['shader-f16'], vramRequiredMB: 944.62 });
    expect(check.available).toBe(false);
    if (!check.available) expect(check.reason).toMatch(reason);
  });

  it('gives up on an adapter request that never answers, and on one that throws', async () => {
    const hanging = { gpu: { requestAdapter: () => new Promise<null>(() => {}) } };
    expect(await checkWebgpu({ navigator: hanging, timeoutMs: 20 })).toEqual({ available: false, reason: 'no WebGPU adapter: navigator.gpu.requestAdapter() did not answer within 20 ms' });
    const throwing = { gpu: { requestAdapter: async () => Promise.reject(new Error('GPU process crashed')) } };
    expect(await checkWebgpu({ navigator: throwing })).toEqual({ available: false, reason: 'no WebGPU adapter: GPU process crashed' });
  });

  it('accepts a software adapter when asked to, and a model storage requirement the adapter meets', async () => {
    const check = await checkWebgpu({ navigator: navigatorWith(goodAdapter({ isFallbackAdapter: true })), allowFallbackAdapter: true, storageBufferBytes: 2 ** 29 });
    expect(check.available).toBe(true);
    const short = await checkWebgpu({ navigator: navigatorWith(goodAdapter()), storageBufferBytes: 2 ** 31 });
    expect(short).toEqual({ available: false, reason: expect.stringContaining('the model needs 256 MB and 2,048 MB') });
  });
});
