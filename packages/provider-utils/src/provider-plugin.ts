import { CtxkitError, type ModelLimits, type ProviderPlugin, type SummarizerPlugin, type Usage } from '@ctxkit/core';
import { createApiSummarizer, type SummaryCompletionRequest } from './api-summarizer.ts';
import { type ClassifierRule, classifyError, type ProviderErrorClassification } from './classify-error.ts';
import { createWindowCache, type WindowCache, type WindowCacheOptions } from './window-cache.ts';

/** Options for {@link createProviderPlugin}: the parts that differ between providers. */
export interface ProviderPluginOptions<Id extends string> {
  id: Id;
  /** The window cache options; its `provider` namespace defaults to `id`. */
  windows: Omit<WindowCacheOptions, 'provider'> & { provider?: string };
  /** Reads the provider's usage figures from a response, a stream chunk or event, or a list of them. */
  usage(response: unknown): Usage | undefined;
  /** Provider-specific classifier rules, run before the shared families. */
  rules?: readonly ClassifierRule[];
  /** One completion call for the summarizer; without it the provider has no summarizer. */
  complete?(model: string, request: SummaryCompletionRequest): Promise<string>;
  /** The summarizer's default timeout. @default 120_000 */
  summarizerTimeoutMs?: number;
}

/** Options of a provider's `summarizer(model, options)`. */
export interface ProviderSummarizerOptions {
  /** @default 120_000 */
  timeoutMs?: number;
}

/**
 * What {@link createProviderPlugin} builds: a `ProviderPlugin` (the one provider contract, in
 * `@ctxkit/core`) whose window cache and window learning are visible to the host. Not a second contract:
 * anything that takes a provider takes a `ProviderPlugin`, and this is one.
 */
export interface ProviderPluginWithWindows<Id extends string = string> extends ProviderPlugin<Id> {
  /** The windows of this provider's models, per model: resolve, learn, remember, refresh, forget. */
  readonly windows: WindowCache;
  /**
   * What an error means. An overflow that states the real limit also updates the stored window of the
   * model, when the model is known: pass `{ model }` as the context (the engine does), or an error
   * carrying a `model` field. The learning is stored in the background.
   */
  classifyError(error: unknown, context?: { model?: string }): ProviderErrorClassification;
  /** Classifies an error from a call to `model` and, for an overflow stating the limit, learns that window. */
  learnFromError(model: string, error: unknown): Promise<{ classification: ProviderErrorClassification; limits?: ModelLimits }>;
  summarizer(model: string, options?: ProviderSummarizerOptions): SummarizerPlugin<`${Id}:${string}`>;
}

/**
 * Checks a provider id: a name of letters, digits, `.`, `_` or `-`. Ids name the store namespace of the
 * windows and prefix summarizer ids (`ollama:qwen3:8b`), so a `:` or `/` in one would mix records up.
 * @throws CtxkitError INVALID_ARGUMENT, with `source` as the message's source
 */
export function checkProviderId(id: unknown, source: string): void {
  if (typeof id !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/i.test(id)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `id must be a name of letters, digits, '.', '_' or '-', got ${JSON.stringify(id)}` });
  }
}

function modelOf(error: unknown): string | undefined {
  const model = typeof error === 'object' && error !== null ? (error as { model?: unknown }).model : undefined;
  return typeof model === 'string' && model !== '' ? model : undefined;
}

/**
 * Builds a provider plugin from its parts: windows per (provider, model) through a window cache,
 * usage, error classification with window learning, and a summarizer over one completion call.
 * What every `@ctxkit/provider-*` package is made of; a third-party provider can use it too.
 * @throws CtxkitError INVALID_ARGUMENT for an id that is not a name of letters, digits, `.`, `_` or `-`
 * @example
 * ```ts
 * const provider = createProviderPlugin({
 *   id: 'my-host',
 *   windows: { store, discover: async (model, { signal }) => ({ contextWindow: await askHost(model, signal) }) },
 *   usage: (response) => ({ inputTokens: (response as { usage: { in: number } }).usage.in }),
 *   complete: async (model, { system, prompt, signal }) => callHost(model, system, prompt, signal),
 * });
 * ```
 */
export function createProviderPlugin<Id extends string>(options: ProviderPluginOptions<Id>): ProviderPluginWithWindows<Id> {
  checkProviderId(options.id, 'provider-utils');
  const windows = createWindowCache({ ...options.windows, provider: options.windows.provider ?? options.id });
  const rules = options.rules ?? [];
  const classify = (error: unknown) => classifyError(error, { provider: options.id, rules });
  const learn = (model: string, classification: ProviderErrorClassification) =>
    classification.kind === 'context_overflow' && classification.limitTokens !== undefined ? windows.learn(model, classification) : Promise.resolve(undefined);
  const summarizerTimeoutMs = options.summarizerTimeoutMs ?? 120_000;

  return {
    specificationVersion: 'v1',
    kind: 'provider',
    id: options.id,
    windows,
    contextWindow: (model, windowOptions) => windows.resolve(model, windowOptions),
    usage: (response) => {
      try {
        return options.usage(response);
      } catch {
        // A response of another shape has no usage to read; the manager then estimates.
        return undefined;
      }
    },
    classifyError(error, context = {}) {
      const classification = classify(error);
      const model = context.model || modelOf(error);
      // Learning is persisted in the background: classification is synchronous by contract.
      if (model) void learn(model, classification).catch(() => undefined);
      return classification;
    },
    async learnFromError(model, error) {
      const classification = classify(error);
      const limits = await learn(model, classification);
      return limits ? { classification, limits } : { classification };
    },
    summarizer(model, summarizerOptions = {}) {
      const complete = options.complete;
      if (!complete) {
        throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: options.id, message: `${options.id} has no summarizer` });
      }
      if (typeof model !== 'string' || model === '') {
        throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: options.id, message: `summarizer(model) needs a model id, got ${JSON.stringify(model)}` });
      }
      let known: number | undefined;
      // The window arrives asynchronously; until then the summarizer reports none and is not chunked by it.
      windows.resolve(model).then(
        (limits) => {
          known = limits.source === 'default' ? undefined : limits.contextWindow;
        },
        () => undefined,
      );
      return createApiSummarizer({
        id: `${options.id}:${model}` as `${Id}:${string}`,
        provider: options.id,
        timeoutMs: summarizerOptions.timeoutMs ?? summarizerTimeoutMs,
        contextWindow: () => known,
        complete: async (request) => {
          try {
            return await complete(model, request);
          } catch (error) {
            // The summarizer's own overflow teaches the window of its model like any other call's.
            await learn(model, classify(error)).catch(() => undefined);
            throw error;
          }
        },
      });
    },
  };
}
