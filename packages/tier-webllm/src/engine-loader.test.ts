import { describe, expect, it, vi } from 'vitest';
import { createEngineDouble } from './engine-double.ts';
import { webllmTier } from './webllm-tier.ts';

// WebLLM itself, as the tier reaches it: through a dynamic import, on a device that passed the checks.
const webllm = vi.hoisted(() => ({
  prebuiltAppConfig: {
    model_list: [
      { model_id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', vram_required_MB: 944.62, overrides: { context_window_size: 4096 } },
      { model_id: 'Tiny-q4f32_1-MLC', vram_required_MB: 100, buffer_size_required_bytes: 2 ** 28, overrides: { context_window_size: 2048 } },
    ],
  },
  CreateMLCEngine: vi.fn(),
  CreateWebWorkerMLCEngine: vi.fn(),
}));
vi.mock('@mlc-ai/web-llm', () => webllm);

const gpu = (features: string[] = ['shader-f16']) => ({
  navigator: { gpu: { requestAdapter: async () => ({ features: new Set(features), limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 } }) } },
});

describe('the engine the tier creates through WebLLM', () => {
  it('calls CreateMLCEngine with the model, the prebuilt list and a progress callback the host hears', async () => {
    const engine = createEngineDouble();
    webllm.CreateMLCEngine.mockImplementationOnce(async (_model: string, config: { initProgressCallback(report: unknown): void }) => {
      config.initProgressCallback({ progress: 0.25, timeElapsed: 1, text: 'Fetching param cache[1/4]: 200MB fetched.' });
      return engine;
    });
    const progress: unknown[] = [];
    const tier = webllmTier({ webgpu: gpu(), onProgress: (report) => progress.push(report) });
    expect(await tier.load()).toEqual({ ok: true, contextWindow: 4_096 });
    expect(webllm.CreateMLCEngine).toHaveBeenCalledWith('Qwen2.5-0.5B-Instruct-q4f16_1-MLC', { appConfig: webllm.prebuiltAppConfig, initProgressCallback: expect.any(Function) }, undefined);
    expect(progress).toEqual([{ phase: 'load', message: 'loading Qwen2.5-0.5B-Instruct-q4f16_1-MLC: Fetching param cache[1/4]: 200MB fetched.', fraction: 0.25 }]);
    await tier.unload();
    expect(engine.unloaded).toBe(true);
  });

  it('runs the engine in a worker from a factory, with the window from chatOptions, and terminates the worker on unload', async () => {
    webllm.CreateWebWorkerMLCEngine.mockResolvedValueOnce(createEngineDouble());
    const worker = { postMessage: vi.fn(), terminate: vi.fn() };
    const tier = webllmTier({ model: 'Tiny-q4f32_1-MLC', webgpu: gpu([]), useWorker: () => worker, chatOptions: { context_window_size: 1_024 } });
    expect(await tier.load()).toEqual({ ok: true, contextWindow: 1_024 });
    expect(webllm.CreateWebWorkerMLCEngine).toHaveBeenCalledWith(worker, 'Tiny-q4f32_1-MLC', expect.objectContaining({ appConfig: webllm.prebuiltAppConfig }), { context_window_size: 1_024 });
    await tier.unload();
    expect(worker.terminate).toHaveBeenCalledTimes(1);
  });

  it('reports a load failure as the reason to skip', async () => {
    webllm.CreateMLCEngine.mockRejectedValueOnce(new Error('Failed to fetch'));
    expect(await webllmTier({ webgpu: gpu() }).load()).toEqual({ ok: false, reason: 'the model "Qwen2.5-0.5B-Instruct-q4f16_1-MLC" failed to load: Failed to fetch' });
  });

  it('checks the model record’s buffer requirement against the adapter before loading', async () => {
    const small = { navigator: { gpu: { requestAdapter: async () => ({ features: new Set<string>(), limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 27 } }) } } };
    webllm.CreateMLCEngine.mockClear();
    expect(await webllmTier({ model: 'Tiny-q4f32_1-MLC', webgpu: small }).load()).toEqual({ ok: false, reason: expect.stringMatching(/^not enough GPU buffer space/) });
    expect(webllm.CreateMLCEngine).not.toHaveBeenCalled();
  });
});
