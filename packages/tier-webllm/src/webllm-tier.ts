import { CtxkitError, type Message, type TierContext, type TierOutcome, type TierPlugin } from '@ctxkit/core';
import { assertProtectedStart, coveredCount, digestMessage, formatCount, messageKey, numberOption, summarizableSpan, summarizeSpan, type FoldSpan } from '@ctxkit/summarize';
import { createEngineLoader, type EngineAvailability, type WebllmWorker } from './engine-loader.ts';
import type { WebgpuRequirements } from './webgpu-check.ts';
import type { CreateWebllmEngine, WebllmEngine, WebllmLoadProgress } from './webllm-engine.ts';
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
export interface WebllmTierOptions {
  /** A model id from WebLLM's prebuilt list (or from `appConfig`). @default defaultWebllmModel */
  model?: string;
  /** An engine to use as is (anything with WebLLM's `chat.completions.create`); no WebGPU check then. */
  engine?: WebllmEngine;
  /** Creates the engine on first use, instead of `CreateMLCEngine`; no WebGPU check then. */
  createEngine?: CreateWebllmEngine;
  /**
   * Run the model in this web worker (`CreateWebWorkerMLCEngine`), so generation does not block the page.
   * A function is called once, on first use, and the worker it made is terminated by `unload()`.
   */
  useWorker?: WebllmWorker | (() => WebllmWorker);
  /** WebLLM's `AppConfig`, for a model that is not in the prebuilt list. */
  appConfig?: unknown;
  /** WebLLM's `ChatOptions` for the model, e.g. `{ context_window_size: 2048 }`. */
  chatOptions?: Record<string, unknown>;
  /** The model's window, prompt and answer together. @default the model record's `context_window_size`, else 4,096 */
  contextWindow?: number;
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
  /** WebGPU check settings: a stand-in `navigator`, accepting a software adapter, the adapter timeout. */
  webgpu?: Pick<WebgpuRequirements, 'navigator' | 'allowFallbackAdapter' | 'timeoutMs'>;
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

/** The summary answer never drops below this, however close the target is. */
const minAnswerTokens = 256;

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
  const model = options.model ?? defaultWebllmModel;
  if (typeof model !== 'string' || model === '') throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: 'option model must be a non-empty model id' });
  const contextWindow = options.contextWindow === undefined ? undefined : numberOption(source, 'contextWindow', options.contextWindow, 4_096, { min: 256, integer: true });
  const maxChunkTokens = options.maxChunkTokens === undefined ? undefined : numberOption(source, 'maxChunkTokens', options.maxChunkTokens, 4_096, { min: 256, integer: true });
  const timeoutMs = numberOption(source, 'timeoutMs', options.timeoutMs, 60_000, { min: 1, infinite: true });
  const totalTimeoutMs = numberOption(source, 'totalTimeoutMs', options.totalTimeoutMs, 300_000, { min: 1, infinite: true });
  const loadTimeoutMs = numberOption(source, 'loadTimeoutMs', options.loadTimeoutMs, 60_000, { min: 0, infinite: true });
  const retryAfterMs = numberOption(source, 'retryAfterMs', options.retryAfterMs, 300_000, { min: 0, infinite: true });
  const maxSummaryTokens = numberOption(source, 'maxSummaryTokens', options.maxSummaryTokens, 1_000, { min: 64, integer: true });
  const minSpanTokens = numberOption(source, 'minSpanTokens', options.minSpanTokens, 500, { min: 0 });
  const taskTermCoverage = numberOption(source, 'taskTermCoverage', options.taskTermCoverage, 0.3, { min: 0, max: 1 });
  const temperature = numberOption(source, 'temperature', options.temperature, 0, { min: 0, max: 2 });
  if (options.extraInstructions !== undefined && typeof options.extraInstructions !== 'string') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `option extraInstructions must be a string, got ${typeof options.extraInstructions}` });
  }
  if (options.engine !== undefined && typeof options.engine?.chat?.completions?.create !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: 'option engine must implement chat.completions.create (a WebLLM MLCEngine or WebWorkerMLCEngine)' });
  }

  // Who hears progress right now: the host always, and the compactions that are running.
  const compactions = new Set<TierContext['progress']>();
  const report = (progress: WebllmTierProgress) => {
    try {
      options.onProgress?.(progress);
    } catch {
      // a broken progress bar must not break the compaction
    }
    for (const listener of compactions) listener({ message: progress.message, ...(progress.fraction === undefined ? {} : { fraction: progress.fraction }) });
  };
  const loader = createEngineLoader({
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
  // One summarizer per engine, so what it learns about the model's token counts carries over.
  let summarizer: WebllmSummarizer | undefined;
  let summarizerEngine: WebllmEngine | undefined;
  const summarizerFor = (ready: Extract<EngineAvailability, { ok: true }>) => {
    if (!summarizer || summarizerEngine !== ready.engine) {
      summarizerEngine = ready.engine;
      summarizer = webllmSummarizer({
        engine: ready.engine,
        contextWindow: Math.min(ready.contextWindow, maxChunkTokens ?? ready.contextWindow),
        timeoutMs,
        temperature,
        onStuck: (engine) => loader.discard(engine),
      });
    }
    return summarizer;
  };

  /** Summarizes the span with the on-device model; `apply` has checked there is something worth it. */
  const fold = async (messages: readonly Message[], context: TierContext, prepared: { span: FoldSpan; folded: Message[]; spanTokens: number; floor: number }): Promise<TierOutcome> => {
    const { span, folded, spanTokens, floor } = prepared;
    const ready = await loader.get(loadTimeoutMs, context.signal);
    if (!ready.ok) return { status: 'skipped', reason: `on-device model unavailable: ${ready.reason}` };
    const modelSummarizer = summarizerFor(ready);

    const total = context.count(messages);
    const aimed = Math.min(maxSummaryTokens, Math.max(minAnswerTokens, context.targetTokens - (total - spanTokens)));
    const summarize = () =>
      summarizeSpan({
        span: folded,
        spanOffset: span.start,
        ...(span.taskIndex >= 0 ? { task: messages[span.taskIndex]! } : {}),
        summarizer: modelSummarizer,
        // The small model's tokens, estimated high and corrected by its reports, not the agent model's.
        countText: (text) => modelSummarizer.countText(text),
        maxSummaryTokens: aimed,
        timeoutMs: totalTimeoutMs,
        signal: context.signal,
        taskTermCoverage,
        ...(options.extraInstructions === undefined ? {} : { extraInstructions: options.extraInstructions }),
        progress: (detail) => report({ phase: 'summarize', ...detail }),
        source,
      });
    const ratioBefore = modelSummarizer.tokenRatio;
    let result = await summarize();
    // The model counted more tokens than estimated and rejected a chunk: the ratio it taught the
    // summarizer makes smaller chunks, so one more try is worth it.
    if (!result.ok && !result.skip && modelSummarizer.tokenRatio > ratioBefore && !context.signal.aborted) result = await summarize();
    if (!result.ok) {
      return result.skip ? { status: 'skipped', reason: result.reason } : { status: 'failed', reason: result.reason, ...(result.error ? { error: result.error } : {}) };
    }
    const summary = digestMessage({
      kind: 'summary',
      by: 'webllm',
      header: `[ctxkit summary of ${formatCount(coveredCount(folded))} earlier messages, written on this device when the conversation was compacted: a record of earlier work, not a new request.]`,
      body: result.text,
      replaces: folded.map((message, index) => messageKey(message, span.start + index)),
    });
    const output = [...messages.slice(0, span.start), summary, ...messages.slice(span.end)];
    const summaryTokens = context.count([summary]) - floor;
    if (summaryTokens >= spanTokens || context.count(output) >= total) {
      const reason = `the summary (${formatCount(summaryTokens)} tokens) is not shorter than the ${formatCount(spanTokens)}-token span it would replace`;
      return { status: 'failed', reason, error: new CtxkitError({ code: 'SUMMARY_REJECTED', source, message: reason }) };
    }
    report({ phase: 'summarize', message: `summary written in ${result.calls} ${result.calls === 1 ? 'call' : 'calls'}`, fraction: 1 });
    const calls = result.calls === 1 ? '1 call' : `${result.calls} calls (${result.parts} chunks)`;
    return {
      status: 'applied',
      messages: output,
      detail: `folded ${folded.length} messages (${formatCount(spanTokens)} tokens) into a ${formatCount(summaryTokens)}-token on-device summary in ${calls}`,
    };

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
      const found = summarizableSpan(messages, context, minSpanTokens);
      if ('skip' in found) return { status: 'skipped', reason: found.skip };
      const { span, folded, spanTokens } = found;
      const floor = context.count([]);

      compactions.add(context.progress);
      try {
        return await fold(messages, context, { span, folded, spanTokens, floor });
      } finally {
        compactions.delete(context.progress);
      }
    },
  };
}
