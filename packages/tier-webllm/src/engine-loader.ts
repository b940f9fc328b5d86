import { checkWebgpu, type WebgpuRequirements } from './webgpu-check.ts';
import type { CreateWebllmEngine, WebllmEngine, WebllmLoadProgress } from './webllm-engine.ts';

/** A web worker that runs WebLLM's `WebWorkerMLCEngineHandler` (a DOM `Worker` fits). */
export interface WebllmWorker {
  postMessage(message: unknown): void;
  terminate?(): void;
}

/** Where the on-device engine comes from: an engine as is, a factory, a web worker, WebLLM's own configuration. */
export interface WebllmEngineSource {
  /** An engine to use as is (anything with WebLLM's `chat.completions.create`); no WebGPU check then. */
  engine?: WebllmEngine;
  /** Creates the engine on first use, instead of `CreateMLCEngine`; no WebGPU check then. */
  createEngine?: CreateWebllmEngine;
  /**
   * Run the model in this web worker (`CreateWebWorkerMLCEngine`), so generation does not block the page.
   * A function is called once, on first use, and the worker it made is terminated by `unload()`.
   */
  useWorker?: WebllmWorker | (() => WebllmWorker);
  /** WebLLM's `AppConfig`, for a model that is not in the prebuilt list (unknown here, so the types do not pull WebLLM in). */
  appConfig?: unknown;
  /** WebLLM's `ChatOptions` for the model, e.g. `{ context_window_size: 2048 }`. */
  chatOptions?: Record<string, unknown>;
  /** The model's window, prompt and answer together. @default the model record's `context_window_size`, else 4,096 */
  contextWindow?: number;
  /** WebGPU check settings: a stand-in `navigator`, accepting a software adapter, the adapter timeout. */
  webgpu?: Pick<WebgpuRequirements, 'navigator' | 'allowFallbackAdapter' | 'timeoutMs'>;
}

/** How the loader gets its engine, and what it checks first. */
export interface EngineLoaderOptions extends WebllmEngineSource {
  model: string;
  /** How long an unavailable device or failed load is remembered before the next try. */
  retryAfterMs: number;
  /** Load progress, for every listener (the host's `onProgress` and the compaction that waits). */
  onProgress(report: WebllmLoadProgress): void;
}

/** An engine ready to use, or why there is none. `pending` means a load is still running. */
export type EngineAvailability = { ok: true; engine: WebllmEngine; contextWindow: number } | { ok: false; reason: string; pending?: boolean };

/** What the lazily loaded WebLLM module offers the loader. */
interface WebllmModule {
  prebuiltAppConfig: { model_list: ModelRecord[] };
  CreateMLCEngine(model: string, engineConfig?: object, chatOptions?: object): Promise<WebllmEngine>;
  CreateWebWorkerMLCEngine(worker: unknown, model: string, engineConfig?: object, chatOptions?: object): Promise<WebllmEngine>;
}

interface ModelRecord {
  model_id: string;
  vram_required_MB?: number;
  buffer_size_required_bytes?: number;
  required_features?: string[];
  overrides?: { context_window_size?: number };
}

const defaultWindow = 4_096;

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Imports WebLLM, finds the model's record and checks the device can run it; then creates the engine (in a worker when asked). */
async function loadWithWebllm(options: EngineLoaderOptions, onWorkerCreated: (worker: WebllmWorker) => void): Promise<EngineAvailability> {
  const device = await checkWebgpu(options.webgpu ?? {});
  if (!device.available) return { ok: false, reason: device.reason };
  let webllm: WebllmModule;
  try {
    // Imported here, never at the top: WebLLM is megabytes of code that touches browser APIs on load,
    // and only a device that can run it should fetch it.
    webllm = (await import('@mlc-ai/web-llm')) as unknown as WebllmModule;
  } catch (error) {
    return { ok: false, reason: `could not load @mlc-ai/web-llm: ${describe(error)}` };
  }
  const appConfig = (options.appConfig as { model_list?: ModelRecord[] } | undefined) ?? webllm.prebuiltAppConfig;
  const record = appConfig.model_list?.find((entry) => entry.model_id === options.model);
  if (!record) {
    return {
      ok: false,
      reason: `model "${options.model}" is not in WebLLM's model list${options.appConfig ? ' (the appConfig given)' : ''}; pick a model_id from prebuiltAppConfig.model_list or pass appConfig with its record`,
    };
  }
  const fits = await checkWebgpu({
    ...options.webgpu,
    requiredFeatures: record.required_features ?? (/f16/.test(record.model_id) ? ['shader-f16'] : []),
    ...(record.buffer_size_required_bytes === undefined ? {} : { storageBufferBytes: record.buffer_size_required_bytes }),
    ...(record.vram_required_MB === undefined ? {} : { vramRequiredMB: record.vram_required_MB }),
  });
  if (!fits.available) return { ok: false, reason: fits.reason };
  const contextWindow = options.contextWindow ?? (options.chatOptions?.context_window_size as number | undefined) ?? record.overrides?.context_window_size ?? defaultWindow;
  const engineConfig = { appConfig, initProgressCallback: (report: WebllmLoadProgress) => options.onProgress(report) };
  if (options.useWorker) {
    const worker = typeof options.useWorker === 'function' ? options.useWorker() : options.useWorker;
    if (typeof options.useWorker === 'function') onWorkerCreated(worker);
    const engine = await webllm.CreateWebWorkerMLCEngine(worker, options.model, engineConfig, options.chatOptions);
    return { ok: true, engine, contextWindow };
  }
  const engine = await webllm.CreateMLCEngine(options.model, engineConfig, options.chatOptions);
  return { ok: true, engine, contextWindow };
}

/** The load's result, or a pending answer when it takes longer than `waitMs` or the signal aborts first (the load goes on). */
async function waitForLoad(loading: Promise<EngineAvailability>, waitMs: number, signal: AbortSignal, model: string): Promise<EngineAvailability> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const waited = await Promise.race([
    loading,
    new Promise<EngineAvailability>((resolve) => {
      if (Number.isFinite(waitMs))
        timer = setTimeout(() => resolve({ ok: false, pending: true, reason: `the model "${model}" is still loading after ${waitMs} ms; it keeps loading for later compactions` }), waitMs);
    }),
    new Promise<EngineAvailability>((resolve) => {
      onAbort = () => resolve({ ok: false, pending: true, reason: 'aborted while the model was loading' });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }),
  ]);
  if (timer !== undefined) clearTimeout(timer);
  if (onAbort) signal.removeEventListener('abort', onAbort);
  return waited;
}

/**
 * Loads the engine once, lazily, and hands the same one to every compaction; remembers why it is
 * unavailable (no WebGPU, model missing or failed) for `retryAfterMs`, so later compactions skip at once.
 */
export function createEngineLoader(options: EngineLoaderOptions) {
  let current: Promise<EngineAvailability> | undefined;
  let settled: EngineAvailability | undefined;
  let failedAt = 0;
  let createdWorker: WebllmWorker | undefined;

  const start = (): Promise<EngineAvailability> => {
    const attempt = (async (): Promise<EngineAvailability> => {
      try {
        if (options.engine) return { ok: true, engine: options.engine, contextWindow: options.contextWindow ?? defaultWindow };
        if (options.createEngine) {
          const engine = await options.createEngine(options.model, { onProgress: options.onProgress });
          if (typeof engine?.chat?.completions?.create !== 'function') return { ok: false, reason: 'createEngine returned no engine with chat.completions.create' };
          return { ok: true, engine, contextWindow: options.contextWindow ?? defaultWindow };
        }
        return await loadWithWebllm(options, (worker) => {
          createdWorker = worker;
        });
      } catch (error) {
        return { ok: false, reason: `the model "${options.model}" failed to load: ${describe(error)}` };
      }
    })();
    current = attempt;
    attempt.then((result) => {
      if (current !== attempt) return;
      settled = result;
      if (!result.ok) failedAt = Date.now();
    });
    return attempt;
  };

  return {
    /** The engine, loading it if needed; waits at most `waitMs` (the load goes on afterwards). */
    async get(waitMs: number, signal: AbortSignal): Promise<EngineAvailability> {
      if (settled && !settled.ok && Date.now() - failedAt >= options.retryAfterMs) {
        settled = undefined;
        current = undefined;
      }
      if (settled) return settled;
      return waitForLoad(current ?? start(), waitMs, signal, options.model);
    },
    /** The last settled state, without starting a load. */
    peek(): EngineAvailability | undefined {
      return settled;
    },
    /** Frees the model and forgets what was learned; the next use loads again. */
    async unload(): Promise<void> {
      const pending = current;
      current = undefined;
      settled = undefined;
      failedAt = 0;
      const worker = createdWorker;
      createdWorker = undefined;
      const result = await pending?.catch(() => undefined);
      try {
        if (result?.ok && result.engine !== options.engine) await result.engine.unload?.();
      } finally {
        worker?.terminate?.();
      }
    },
    /** Drops a stuck engine so the next compaction loads a fresh one. */
    discard(engine: WebllmEngine): void {
      if (!(settled?.ok && settled.engine === engine)) return;
      current = undefined;
      if (engine === options.engine) {
        // The host's engine cannot be replaced from here: rest it for a while instead.
        settled = { ok: false, reason: 'the engine did not stop after interruptGenerate(); resting it before the next try' };
        failedAt = Date.now();
        return;
      }
      settled = undefined;
      Promise.resolve(engine.unload?.()).catch(() => {});
    },
  };
}

/** The loader {@link createEngineLoader} returns. */
export type EngineLoader = ReturnType<typeof createEngineLoader>;
