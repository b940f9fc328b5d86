import { CtxkitError, type Message, type TierContext, type TierOutcome, type TierPlugin } from '@ctxkit/core';
import { assertProtectedStart, callsDetail, type FoldedSpan, foldSpanSummary, formatCount, numberOption, summarizableSpan, summaryOptions } from '@ctxkit/summarize';
import { createEngineLoader, type EngineAvailability, type EngineLoader, type WebllmEngineSource } from './engine-loader.ts';
import type { WebllmEngine, WebllmLoadProgress } from './webllm-engine.ts';
import { type WebllmSummarizer, webllmSummarizer } from './webllm-summarizer.ts';

const source = 'tier-webllm';

/** The default model: small (about 945 MB of GPU memory), instruction-tuned, in WebLLM's prebuilt list, 4,096-token window. */
export const defaultWebllmModel = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';

/** Progress of the tier, for a page's progress bar: loading the model, or summarizing chunk n of m. */
export interface WebllmTierProgress {
  phase: 'load' | 'summarize';
  message: string;
  /** From 0 to 1, when known. */
  fraction?: number;
}

/** Options for {@link webllmTier}. */
export interface WebllmTierOptions extends WebllmEngineSource {
  /** A model id from WebLLM's prebuilt list (or from `appConfig`). @default defaultWebllmModel */
  model?: string;
  /**
   * Tokens one request to the model may take, prompt and answer together: the span is cut into chunks
   * that fit it with room for the instructions and the answer. Lower it to keep each generation short.
   * @default the model's window
   */
  maxChunkTokens?: number;
  /** Time one generation may take before `interruptGenerate()` stops it; the tier then fails and the next tier runs. @default 60_000 */
  timeoutMs?: number;
  /** Time for the whole summary (every chunk and merge). @default 300_000 */
  totalTimeoutMs?: number;
  /** How long a compaction waits for the model to load before it skips; the load goes on for later compactions. @default 60_000 */
  loadTimeoutMs?: number;
  /** How long an unavailable device or a failed load is remembered before the tier tries again. @default 300_000 */
  retryAfterMs?: number;
  /** The most tokens the summary may take. @default 1_000 */
  maxSummaryTokens?: number;
  /** Spans smaller than this are left alone. @default 500 */
  minSpanTokens?: number;
  /** Share of the task's key terms the summary's Task section must mention. @default 0.3 */
  taskTermCoverage?: number;
  /** Lines added to the model's instructions. */
  extraInstructions?: string;
  /** Sampling temperature. @default 0 */
  temperature?: number;
  /** Load and summary progress, also outside a compaction (during `load()`). */
  onProgress?: (progress: WebllmTierProgress) => void;
}

/** The tier plugin, with the engine's lifecycle. */
export interface WebllmTier extends TierPlugin<'webllm'> {
  readonly category: 'on-device';
  /** Loads the model now (a page calls this at start so the first compaction does not wait). Never throws. */
  load(): Promise<{ ok: true; contextWindow: number } | { ok: false; reason: string }>;
  /** Frees the model's memory (and a worker the tier created); the next compaction loads it again. */
  unload(): Promise<void>;
  /** The summarizer over the loaded engine, once loaded: its `tokenRatio` shows what the model's reports taught it. */
  readonly summarizer: WebllmSummarizer | undefined;
}

/** {@link WebllmTierOptions} checked, with the defaults filled in. */
interface WebllmSettings {
  model: string;
  contextWindow: number | undefined;
  maxChunkTokens: number | undefined;
  timeoutMs: number;
  totalTimeoutMs: number;
  loadTimeoutMs: number;
  retryAfterMs: number;
  maxSummaryTokens: number;
  minSpanTokens: number;
  taskTermCoverage: number;
  temperature: number;
  extraInstructions: string | undefined;
}

/**
 * Checks the tier's options and fills in the defaults.
 * @throws CtxkitError INVALID_ARGUMENT naming the option and what it accepts
 */
function webllmSettings(options: WebllmTierOptions): WebllmSettings {
  const model = options.model ?? defaultWebllmModel;
  if (typeof model !== 'string' || model === '') throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: 'option model must be a non-empty model id' });
  const { timeoutMs, maxSummaryTokens, taskTermCoverage, extraInstructions } = summaryOptions(source, options, { timeoutMs: 60_000, maxSummaryTokens: 1_000 });
  if (options.engine !== undefined && typeof options.engine?.chat?.completions?.create !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: 'option engine must implement chat.completions.create (a WebLLM MLCEngine or WebWorkerMLCEngine)' });
  }
  return {
    model,
    contextWindow: options.contextWindow === undefined ? undefined : numberOption(source, 'contextWindow', options.contextWindow, 4_096, { min: 256, integer: true }),
    maxChunkTokens: options.maxChunkTokens === undefined ? undefined : numberOption(source, 'maxChunkTokens', options.maxChunkTokens, 4_096, { min: 256, integer: true }),
    timeoutMs,
    totalTimeoutMs: numberOption(source, 'totalTimeoutMs', options.totalTimeoutMs, 300_000, { min: 1, infinite: true }),
    loadTimeoutMs: numberOption(source, 'loadTimeoutMs', options.loadTimeoutMs, 60_000, { min: 0, infinite: true }),
    retryAfterMs: numberOption(source, 'retryAfterMs', options.retryAfterMs, 300_000, { min: 0, infinite: true }),
    maxSummaryTokens,
    minSpanTokens: numberOption(source, 'minSpanTokens', options.minSpanTokens, 500, { min: 0 }),
    taskTermCoverage,
    temperature: numberOption(source, 'temperature', options.temperature, 0, { min: 0, max: 2 }),
    extraInstructions,
  };
}

/** The tier's progress, to the host's `onProgress` (whose errors are swallowed) and to every compaction that is running. */
function progressReporter(onProgress: WebllmTierOptions['onProgress'], compactions: ReadonlySet<TierContext['progress']>): (progress: WebllmTierProgress) => void {
  return (progress) => {
    try {
      onProgress?.(progress);
    } catch {
      // a broken progress bar must not break the compaction
    }
    for (const listener of compactions) listener({ message: progress.message, ...(progress.fraction === undefined ? {} : { fraction: progress.fraction }) });
  };
}

/** The engine loader for the tier's options, reporting load progress. */
function tierEngineLoader(options: WebllmTierOptions, settings: WebllmSettings, report: (progress: WebllmTierProgress) => void): EngineLoader {
  const { model, contextWindow, retryAfterMs } = settings;
  return createEngineLoader({
    model,
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.createEngine ? { createEngine: options.createEngine } : {}),
    ...(options.useWorker ? { useWorker: options.useWorker } : {}),
    ...(options.appConfig === undefined ? {} : { appConfig: options.appConfig }),
    ...(options.chatOptions ? { chatOptions: options.chatOptions } : {}),
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(options.webgpu ? { webgpu: options.webgpu } : {}),
    retryAfterMs,
    onProgress: (progress: WebllmLoadProgress) =>
      report({ phase: 'load', message: `loading ${model}: ${progress.text}`, ...(Number.isFinite(progress.progress) ? { fraction: Math.min(1, Math.max(0, progress.progress)) } : {}) }),
  });
}

/**
 * Summarizes the span with the on-device model (once more when the model's own counts taught the
 * summarizer smaller chunks), and folds the summary in when it is shorter.
 */
async function foldOnDevice(
  messages: readonly Message[],
  found: FoldedSpan,
  context: TierContext,
  modelSummarizer: WebllmSummarizer,
  settings: WebllmSettings,
  report: (progress: WebllmTierProgress) => void,
): Promise<TierOutcome> {
  const ratioBefore = modelSummarizer.tokenRatio;
  const fold = await foldSpanSummary(messages, found, context, {
    ...settings,
    summarizer: modelSummarizer,
    // The small model's tokens, estimated high and corrected by its reports, not the agent model's.
    countText: (text) => modelSummarizer.countText(text),
    timeoutMs: settings.totalTimeoutMs,
    progress: (detail) => report({ phase: 'summarize', ...detail }),
    source,
    by: 'webllm',
    onDevice: true,
    // The model counted more tokens than estimated and rejected a chunk: the ratio it taught the
    // summarizer makes smaller chunks, so one more try is worth it.
    retry: (result) => !result.skip && modelSummarizer.tokenRatio > ratioBefore && !context.signal.aborted,
  });
  if (!fold.ok) return fold.outcome;
  report({ phase: 'summarize', message: `summary written in ${fold.calls} ${fold.calls === 1 ? 'call' : 'calls'}`, fraction: 1 });
  return {
    status: 'applied',
    messages: fold.messages,
    tokens: fold.tokens,
    detail: `folded ${found.folded.length} messages (${formatCount(found.spanTokens)} tokens) into a ${formatCount(fold.summaryTokens)}-token on-device summary in ${callsDetail(fold, 'call', 'chunk')}`,
  };
}

/**
 * Tier 1: a small model on the user's own device (WebLLM on WebGPU) folds the span between the task and
 * the recent turns into one structured summary, in chunks that fit its small window, merged into the
 * sections tier 0 writes. Skipped, quickly and with a reason, where there is no WebGPU, no adapter, too
 * little memory, or the model fails to load; a hung generation is interrupted at `timeoutMs` and the
 * tier fails; either way the transcript stays as it was and the next tier runs.
 *
 * When to use: after the structural tiers and before trim, where a user may spend their own GPU instead
 * of paid tokens; it is the tier the "token compression" switch (`onDeviceCompaction: false`) turns off.
 * Gotchas: the first use downloads the model (hundreds of MB) unless `load()` ran earlier; the engine is
 * reused across compactions until `unload()`. Importing this module never loads WebLLM.
 * @throws CtxkitError INVALID_ARGUMENT for an option out of range (at creation), or a `context.protectedStart` outside the transcript
 * @example
 * ```ts
 * import { webllmTier } from '@ctxkit/tier-webllm';
 * const onDevice = webllmTier({ onProgress: ({ message, fraction }) => bar.update(message, fraction) });
 * const manager = createCtxkit({ model: 'gpt-4o', contextWindow: 128_000, onDevice, editedFiles: false });
 * void onDevice.load(); // start the download now rather than at the first compaction
 * ```
 */
export function webllmTier(options: WebllmTierOptions = {}): WebllmTier {
  const settings = webllmSettings(options);
  // Who hears progress right now: the host always, and the compactions that are running.
  const compactions = new Set<TierContext['progress']>();
  const report = progressReporter(options.onProgress, compactions);
  const loader = tierEngineLoader(options, settings, report);
  // One summarizer per engine, so what it learns about the model's token counts carries over.
  let summarizer: WebllmSummarizer | undefined;
  let summarizerEngine: WebllmEngine | undefined;
  const summarizerFor = (ready: Extract<EngineAvailability, { ok: true }>) => {
    if (!summarizer || summarizerEngine !== ready.engine) {
      summarizerEngine = ready.engine;
      summarizer = webllmSummarizer({
        engine: ready.engine,
        contextWindow: Math.min(ready.contextWindow, settings.maxChunkTokens ?? ready.contextWindow),
        timeoutMs: settings.timeoutMs,
        temperature: settings.temperature,
        onStuck: (engine) => loader.discard(engine),
      });
    }
    return summarizer;
  };

  return {
    specificationVersion: 'v1',
    kind: 'tier',
    id: 'webllm',
    category: 'on-device',
    get summarizer() {
      return summarizer;
    },
    async load() {
      const ready = await loader.get(Number.POSITIVE_INFINITY, new AbortController().signal);
      if (!ready.ok) return { ok: false, reason: ready.reason };
      summarizerFor(ready);
      return { ok: true, contextWindow: ready.contextWindow };
    },
    async unload() {
      summarizer = undefined;
      summarizerEngine = undefined;
      await loader.unload();
    },
    async apply(messages: readonly Message[], context: TierContext): Promise<TierOutcome> {
      assertProtectedStart(messages, context.protectedStart, source);
      // Everything that needs no model first, so a transcript with nothing to fold never loads one.
      const found = summarizableSpan(messages, context, settings.minSpanTokens);
      if ('skip' in found) return { status: 'skipped', reason: found.skip };
      compactions.add(context.progress);
      try {
        const ready = await loader.get(settings.loadTimeoutMs, context.signal);
        if (!ready.ok) return { status: 'skipped', reason: `on-device model unavailable: ${ready.reason}` };
        return await foldOnDevice(messages, found, context, summarizerFor(ready), settings, report);
      } finally {
        compactions.delete(context.progress);
      }
    },
  };
}
