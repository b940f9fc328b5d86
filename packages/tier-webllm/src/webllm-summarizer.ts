import { CtxkitError, type SummarizeRequest, type SummarizerPlugin, textOf } from '@ctxkit/core';
import { numberOption } from '@ctxkit/summarize';
import { heuristicEstimator } from '@ctxkit/tokens';
import { parseContextWindowError } from './context-window-error.ts';
import type { WebllmChatCompletion, WebllmEngine } from './webllm-engine.ts';

const source = 'tier-webllm';

/** Options for {@link webllmSummarizer}. */
export interface WebllmSummarizerOptions {
  /** The engine, or a function that gives it when the first summary is asked for (a lazy load). */
  engine: WebllmEngine | (() => Promise<WebllmEngine>);
  /** Tokens the model reads at once, prompt and answer together (WebLLM's `context_window_size`). @default 4_096 */
  contextWindow?: number;
  /** Time one generation may take before it is stopped with `interruptGenerate()` and counts as failed. @default 60_000 */
  timeoutMs?: number;
  /** Sampling temperature; 0 picks the likeliest token, which keeps summaries factual. @default 0 */
  temperature?: number;
  /** The model id sent with each request, for an engine that holds several models. */
  model?: string;
  /**
   * Counts a text before it is sent. It should err high: the model's own tokenizer is not at hand, and
   * a prompt that overflows the window is rejected. The summarizer corrects it with what the engine
   * reports (`usage.prompt_tokens`, and the numbers of a context-window error).
   * @default heuristicEstimator() from @ctxkit/tokens (characters ÷ 4, raised 25%)
   */
  countText?: (text: string) => number;
  /** Called when a stopped generation did not end within a grace period: the engine is stuck and should be replaced. */
  onStuck?: (engine: WebllmEngine) => void;
}

/** A summarizer on a WebLLM engine, with its token count corrected by what the model reported. */
export interface WebllmSummarizer extends SummarizerPlugin<'webllm'> {
  readonly contextWindow: number;
  /**
   * Tokens of a text as this model counts them, estimated: `countText` times {@link tokenRatio}. Plan
   * chunks with this count, not the agent model's.
   */
  countText(text: string): number;
  /** The model's tokens per counted token, learned from the engine's reports (1 until the first one). */
  readonly tokenRatio: number;
}

/** A stopped generation gets this long to settle before the engine counts as stuck. */
const stopGraceMs = 2_000;
/**
 * Ratios are kept within these bounds: never below 1, because the estimate errs high on purpose and a
 * ratio learned on prose would undercount the next chunk of code; never above 4, which is a broken report.
 */
const minRatio = 1;
const maxRatio = 4;
/** The ratio is the highest of the last few reports, so one prose-heavy request does not loosen it too far. */
const ratioWindow = 8;

// One generation at a time per engine: WebLLM's engine keeps one conversation state.
const queues = new WeakMap<WebllmEngine, Promise<unknown>>();

function serialized<T>(engine: WebllmEngine, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(engine) ?? Promise.resolve();
  const next = previous.then(work, work);
  queues.set(
    engine,
    next.then(
      () => undefined,
      () => undefined,
    ),
  );
  return next;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The model's tokens per counted token, learned from its reports. */
interface RatioLearner {
  readonly ratio: number;
  /** Learns from a report; `failed` (a rejected or cut request) pins the ratio for good. */
  learn(modelTokens: number, counted: number, failed?: boolean): void;
}

function createRatioLearner(): RatioLearner {
  const observed: number[] = [];
  // Ratios from requests the window rejected or cut are kept for good: they are proof the estimate was
  // short on real content, and letting them age out of the window brings the same failure back.
  let pinned = minRatio;
  let ratio = 1;
  return {
    get ratio() {
      return ratio;
    },
    learn(modelTokens, counted, failed = false) {
      if (!(modelTokens > 0 && counted > 0)) return;
      const next = Math.min(maxRatio, modelTokens / counted);
      if (failed) pinned = Math.max(pinned, next);
      observed.push(next);
      if (observed.length > ratioWindow) observed.shift();
      ratio = Math.max(pinned, ...observed);
    },
  };
}

type StopReason = 'timeout' | 'abort';

/** Stops a generation at the time limit or when the request aborts, with `interruptGenerate()`. */
interface GenerationStop {
  readonly stoppedBy: StopReason | undefined;
  /** Settles when the generation is stopped. */
  readonly stopped: Promise<void>;
  /** The error for a stopped generation. */
  failure(cause?: unknown): CtxkitError;
  dispose(): void;
}

function generationStop(engine: WebllmEngine, timeoutMs: number, signal: AbortSignal | undefined): GenerationStop {
  let stoppedBy: StopReason | undefined;
  let onStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    onStopped = resolve;
  });
  const stop = (why: StopReason) => {
    if (stoppedBy) return;
    stoppedBy = why;
    onStopped();
    try {
      Promise.resolve(engine.interruptGenerate?.()).catch(() => {});
    } catch {
      // an engine that cannot be interrupted is caught by the grace period
    }
  };
  const timer = Number.isFinite(timeoutMs) ? setTimeout(() => stop('timeout'), timeoutMs) : undefined;
  const onAbort = () => stop('abort');
  if (signal?.aborted) stop('abort');
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    get stoppedBy() {
      return stoppedBy;
    },
    stopped,
    failure: (cause) =>
      new CtxkitError({
        code: stoppedBy === 'timeout' ? 'TIMEOUT' : 'ABORTED',
        source,
        message:
          stoppedBy === 'timeout'
            ? `the on-device model did not finish within ${timeoutMs} ms; stopped with interruptGenerate()`
            : 'the summary was aborted; the generation was stopped with interruptGenerate()',
        ...(cause === undefined ? {} : { cause }),
      }),
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** The error for a generation the engine rejected: a prompt over the window teaches the ratio. */
function rejectedGeneration(error: unknown, counted: number, ratio: RatioLearner): CtxkitError {
  const exceeded = parseContextWindowError(error);
  if (!exceeded) return new CtxkitError({ code: 'PROVIDER_ERROR', source, message: `the on-device model failed: ${describe(error)}`, cause: error });
  ratio.learn(exceeded.promptTokens, counted, true);
  return new CtxkitError({
    code: 'PROVIDER_ERROR',
    source,
    message: `the on-device model counted ${exceeded.promptTokens} prompt tokens, over its ${exceeded.contextWindow}-token window (estimated ${counted}); the count is corrected for the next request`,
    cause: error,
  });
}

/**
 * The answer's text, after learning from its usage.
 * @throws CtxkitError ABORTED when someone else interrupted it, PROVIDER_ERROR when the window cut it or it holds no text
 */
function completionText(completion: WebllmChatCompletion, maxTokens: number | undefined, counted: number, ratio: RatioLearner): string {
  const choice = completion?.choices?.[0];
  if (choice?.finish_reason === 'abort') {
    throw new CtxkitError({ code: 'ABORTED', source, message: 'the on-device generation was interrupted by someone else (finish_reason "abort")' });
  }
  const promptTokens = completion?.usage?.prompt_tokens;
  const answerTokens = completion?.usage?.completion_tokens;
  const cutByWindow = choice?.finish_reason === 'length' && maxTokens !== undefined && typeof answerTokens === 'number' && answerTokens < maxTokens;
  if (typeof promptTokens === 'number') ratio.learn(promptTokens, counted, cutByWindow);
  if (cutByWindow) {
    // Cut before max_tokens: the window filled up, so the summary is incomplete. The usage above
    // taught the count, so a retry plans smaller chunks.
    throw new CtxkitError({
      code: 'PROVIDER_ERROR',
      source,
      message: `the on-device model's answer was cut after ${answerTokens} tokens where its window filled up (prompt ${promptTokens ?? '?'} tokens, estimated ${counted}); the count is corrected for the next request`,
    });
  }
  const content = choice?.message?.content;
  if (typeof content !== 'string') {
    throw new CtxkitError({ code: 'PROVIDER_ERROR', source, message: `the on-device model returned no text (choices[0].message.content is ${content === null ? 'null' : typeof content})` });
  }
  return content;
}

/** What one generation needs from the summarizer. */
interface GenerationSettings {
  timeoutMs: number;
  temperature: number;
  model: string | undefined;
  baseCount: (text: string) => number;
  ratio: RatioLearner;
  onStuck: ((engine: WebllmEngine) => void) | undefined;
}

/** One summary request to the engine: instructions as the system message, the data as one user message. */
async function generate(engine: WebllmEngine, request: SummarizeRequest, settings: GenerationSettings): Promise<string> {
  // WebLLM wants the last message from the user; one user message also suits a small model's template.
  const data = request.messages.map((message) => textOf(message.content)).join('\n\n');
  const counted = settings.baseCount(request.instructions) + settings.baseCount(data);
  const maxTokens = request.maxOutputTokens === undefined ? undefined : Math.max(1, Math.floor(request.maxOutputTokens));
  const stop = generationStop(engine, settings.timeoutMs, request.signal);
  const stuck = Symbol('stuck');
  try {
    if (stop.stoppedBy) throw stop.failure();
    const work = Promise.resolve().then(() =>
      engine.chat.completions.create({
        messages: [
          { role: 'system', content: request.instructions },
          { role: 'user', content: data },
        ],
        ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
        temperature: settings.temperature,
        stream: false,
        ...(settings.model === undefined ? {} : { model: settings.model }),
      }),
    );
    let completion: WebllmChatCompletion | typeof stuck;
    try {
      completion = await Promise.race([work, stop.stopped.then(() => new Promise<typeof stuck>((resolve) => setTimeout(() => resolve(stuck), stopGraceMs)))]);
    } catch (error) {
      throw stop.stoppedBy ? stop.failure(error) : rejectedGeneration(error, counted, settings.ratio);
    }
    if (completion === stuck) {
      work.catch(() => {});
      settings.onStuck?.(engine);
      throw stop.failure(new Error(`the engine did not stop within ${stopGraceMs} ms of interruptGenerate()`));
    }
    if (stop.stoppedBy) throw stop.failure();
    return completionText(completion, maxTokens, counted, settings.ratio);
  } finally {
    stop.dispose();
  }
}

/**
 * A `SummarizerPlugin` backed by a WebLLM engine: the instructions go as the system message, the data as
 * one user message, with `max_tokens` from the request. A generation that runs past `timeoutMs`, or whose
 * request signal aborts, is stopped with `interruptGenerate()` and rejected; so is a prompt the model
 * finds too long for its window (the numbers it reports correct the count for the next request).
 *
 * When to use: {@link webllmTier} builds one itself. Use it directly to make an on-device model the
 * summarizer of tier 0 or trim (a fully local agent in the browser).
 * @throws CtxkitError INVALID_ARGUMENT for an option out of range
 * @example
 * ```ts
 * import { CreateMLCEngine } from '@mlc-ai/web-llm';
 * const engine = await CreateMLCEngine('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
 * const summarizer = webllmSummarizer({ engine, contextWindow: 4_096 });
 * const manager = createContextManager({ model: 'local', contextWindow: 32_000, plugins: [summaryTier(), summarizer, trimTier()] });
 * ```
 */
export function webllmSummarizer(options: WebllmSummarizerOptions): WebllmSummarizer {
  const contextWindow = numberOption(source, 'contextWindow', options.contextWindow, 4_096, { min: 256, integer: true });
  const timeoutMs = numberOption(source, 'timeoutMs', options.timeoutMs, 60_000, { min: 1, infinite: true });
  const temperature = numberOption(source, 'temperature', options.temperature, 0, { min: 0, max: 2 });
  if (typeof options.engine !== 'function' && (typeof options.engine !== 'object' || options.engine === null || typeof options.engine.chat?.completions?.create !== 'function')) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: 'option engine must implement chat.completions.create (a WebLLM MLCEngine), or be a function that returns one' });
  }
  const estimator = heuristicEstimator();
  const baseCount = options.countText ?? ((text: string) => estimator.estimate(text));
  const ratio = createRatioLearner();
  const settings: GenerationSettings = { timeoutMs, temperature, model: options.model, baseCount, ratio, onStuck: options.onStuck };
  const resolveEngine =
    typeof options.engine === 'function'
      ? options.engine
      : (
          (engine: WebllmEngine) => async () =>
            engine
        )(options.engine);

  return {
    specificationVersion: 'v1',
    kind: 'summarizer',
    id: 'webllm',
    contextWindow,
    get tokenRatio() {
      return ratio.ratio;
    },
    countText: (text) => Math.ceil(baseCount(text) * ratio.ratio),
    async summarize(request) {
      const engine = await resolveEngine();
      return serialized(engine, () => generate(engine, request, settings));
    },
  };
}
