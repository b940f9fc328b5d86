import { CtxkitError, type StorePlugin, type Usage } from '@ctxkit/core';
import type { SummaryCompletionRequest } from './api-summarizer.ts';
import type { ClassifierRule } from './classify-error.ts';
import type { RequestOptions } from './http.ts';
import { unexpectedAnswer } from './provider-call-error.ts';
import { checkProviderId, createProviderPlugin, type ProviderPluginWithWindows } from './provider-plugin.ts';
import { stripThinking } from './strip-thinking.ts';
import type { DiscoveredLimits } from './window-cache.ts';

/** Options every local-server provider takes (Ollama, LM Studio, vLLM, llama.cpp, or your own). */
export interface LocalServerOptions<Id extends string> {
  /** The provider id; give two servers of one kind different ids (`ollama-gpu`). */
  id?: Id;
  /** The server's root URL; a `/v1` or `/api` suffix (an SDK base URL) is accepted and dropped. */
  baseURL?: string;
  /** Sent as `Authorization: Bearer <apiKey>`, for servers started with a key or behind a proxy. */
  apiKey?: string;
  /** Extra headers on every call to the server. */
  headers?: Readonly<Record<string, string>>;
  /** Where discovered and learned windows persist, so a restart with the server down still knows them. @default memoryStore() */
  store?: StorePlugin;
  /** Windows set by hand, per model id; they win over discovery. */
  contextWindows?: Readonly<Record<string, number | { contextWindow: number; maxOutputTokens?: number }>>;
  /** The window while nothing is known (server down at task start and nothing stored). @default 4_096 */
  defaultContextWindow?: number;
  /** How long a lookup of an unknown model waits for discovery before answering with what is known; 0 never waits. @default 3_000 */
  discoveryTimeoutMs?: number;
  /** Timeout of each discovery call to the server. @default 10_000 */
  requestTimeoutMs?: number;
  /** Timeout of a summary written by the provider's summarizer. @default 120_000 */
  summaryTimeoutMs?: number;
  /** Told about discovery and store failures; they never fail a window lookup, which answers from what is known. */
  onError?: (error: unknown, model: string) => void;
  /** A fetch to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
}

/** The default window of a model nothing is known about: the smallest default context of the local servers. */
export const localDefaultContextWindow = 4_096;

/** What a local provider's discovery receives. */
export interface LocalDiscoveryContext {
  /** The provider id, named in errors. */
  provider: string;
  /** The server root, without a trailing slash or SDK suffix. */
  root: string;
  model: string;
  /** Fires at the discovery's deadline. */
  signal: AbortSignal;
  /** The options of one discovery call: the provider, headers, signal, timeout and fetch. Spread them into `requestJson`. */
  call: RequestOptions;
  /** The window to assume for a model the server has not loaded and has no setting for. */
  defaultContextWindow: number;
}

/** What a local discovery found. */
export interface LocalDiscoveredLimits extends DiscoveredLimits {
  /**
   * True when the model is not running and the window is only a setting or an assumption (a Modelfile
   * `num_ctx`, a server default): a window stored while the model ran then stands instead.
   */
  tentative?: boolean;
}

/** What a local provider's summary completion receives. */
export interface LocalCompletionContext {
  /** The provider id, named in errors. */
  provider: string;
  /** The server root, without a trailing slash or SDK suffix. */
  root: string;
  model: string;
  request: SummaryCompletionRequest;
  /**
   * The options of the call: the request's signal, and a timer that is only a backstop (the summarizer's
   * timeout and the request's signal end the call first).
   */
  call: RequestOptions;
}

/** A provider for a model server on the user's machine or network: a {@link ProviderPluginWithWindows} plus the server it talks to. */
export interface LocalProvider<Id extends string = string> extends ProviderPluginWithWindows<Id> {
  /** The server root the provider talks to. */
  readonly baseURL: string;
}

/** What a provider package supplies to {@link createLocalProvider}. */
export interface LocalProviderSpec<Id extends string> {
  /** The id when the user gives none. */
  id: Id;
  /** The root URL when the user gives none. */
  defaultBaseURL: string;
  options: LocalServerOptions<Id>;
  /** Asks the server for a model's window; rejects when the server cannot tell. */
  discover(context: LocalDiscoveryContext): Promise<LocalDiscoveredLimits | undefined>;
  usage(response: unknown): Usage | undefined;
  /** The server's own error wordings, tried before the shared families. */
  rules?: readonly ClassifierRule[];
  /** Writes a summary with one call to the server; returns the text. */
  complete(context: LocalCompletionContext): Promise<string>;
}

function invalid(provider: string, message: string): CtxkitError {
  return new CtxkitError({ code: 'INVALID_ARGUMENT', source: provider, message });
}

/**
 * The server root of a base URL: trailing slashes and an SDK suffix (`/v1`, `/api`, `/api/v0`) dropped.
 * @throws CtxkitError INVALID_ARGUMENT when it is not an http(s) URL
 * @example serverRoot('http://127.0.0.1:8000/v1/', 'vllm') // 'http://127.0.0.1:8000'
 */
export function serverRoot(baseURL: string, provider: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw invalid(provider, `baseURL ${JSON.stringify(baseURL)} is not a URL; expected e.g. http://127.0.0.1:11434`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(provider, `baseURL ${JSON.stringify(baseURL)} must use http or https`);
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/(?:v1|api\/v[01]|api)$/, '');
  return `${url.origin}${path}`;
}

function checkPositive(provider: string, name: string, value: number | undefined, allowZero = false): void {
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && (value > 0 || (allowZero && value === 0)))) {
    throw invalid(provider, `${name} must be a finite number ${allowZero ? 'of zero or more' : 'above zero'}, got ${String(value)}`);
  }
}

/**
 * A provider's own count option, when given: a whole number above zero (`numCtx`, `unloadedContextLength`).
 * @throws CtxkitError INVALID_ARGUMENT naming the option, with `source` (the provider id) as the message's source
 */
export function checkWholeNumberOption(source: string, name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) throw invalid(source, `${name} must be a whole number above zero, got ${String(value)}`);
}

// The summarizer's own timeout and the request's signal end a summary call; the call's timer is only a backstop.
const longestTimerMs = 2_147_483_647;

/**
 * A provider for a model server on the user's machine or network, from its discovery, usage reader,
 * error rules and summary call, on {@link createProviderPlugin}. What sets it apart from a hosted API:
 * the window is a runtime setting of the server, so windows are namespaced by server (two hosts serve
 * one model name with different windows), persisted, and asked for again on every call in the
 * background; the default is 4,096, not 32,768 (a local server may truncate an overflowing prompt
 * silently); a summary's leading `<think>` block is dropped.
 * @throws CtxkitError INVALID_ARGUMENT for a bad baseURL, id or number option
 * @example
 * ```ts
 * export function myServerProvider<const Id extends string = 'my-server'>(options: LocalServerOptions<Id> = {}): LocalProvider<NoInfer<Id>> {
 *   return createLocalProvider({
 *     id: 'my-server' as Id,
 *     defaultBaseURL: 'http://127.0.0.1:9000',
 *     options,
 *     discover: async ({ root, model, call }) => ({ contextWindow: (await requestJson<{ n_ctx: number }>(`${root}/props?model=${model}`, call)).n_ctx }),
 *     usage: openaiCompatibleUsage,
 *     complete: completeWithChatCompletions,
 *   });
 * }
 * ```
 */
export function createLocalProvider<Id extends string>(spec: LocalProviderSpec<Id>): LocalProvider<Id> {
  const { options } = spec;
  const id = (options.id ?? spec.id) as Id;
  checkProviderId(id, spec.id);
  const root = serverRoot(options.baseURL ?? spec.defaultBaseURL, id);
  const defaultContextWindow = options.defaultContextWindow ?? localDefaultContextWindow;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  checkPositive(id, 'defaultContextWindow', defaultContextWindow);
  checkPositive(id, 'requestTimeoutMs', requestTimeoutMs);
  checkPositive(id, 'summaryTimeoutMs', options.summaryTimeoutMs);
  checkPositive(id, 'discoveryTimeoutMs', options.discoveryTimeoutMs, true);
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const call = (signal: AbortSignal, timeoutMs: number): RequestOptions => ({ provider: id, headers, signal, timeoutMs, ...(options.fetch ? { fetch: options.fetch } : {}) });

  const plugin = createProviderPlugin({
    id,
    windows: {
      // One namespace per server: two Ollama hosts serve the same model name with different windows.
      provider: `${id}@${new URL(root).host}`,
      defaultWindow: defaultContextWindow,
      // Local servers reload models with other settings at any time: ask on every call, in the background.
      refreshIntervalMs: 0,
      discoveryDeadlineMs: requestTimeoutMs * 3,
      ...(options.store ? { store: options.store } : {}),
      ...(options.contextWindows ? { configured: options.contextWindows } : {}),
      ...(options.discoveryTimeoutMs === undefined ? {} : { discoveryTimeoutMs: options.discoveryTimeoutMs }),
      ...(options.onError ? { onError: options.onError } : {}),
      discover: async (model, { signal, stored }) => {
        const limits = await spec
          .discover({ provider: id, root, model, signal, call: call(signal, requestTimeoutMs), defaultContextWindow })
          .catch((error: unknown) => Promise.reject(unexpectedAnswer(error, { provider: id, url: root, what: `discovery of ${model}` })));
        // A value seen while the model ran beats a setting or a default: the server default (OLLAMA_CONTEXT_LENGTH,
        // LM Studio's load setting) is invisible from outside until the model loads, and it comes back with it.
        if (limits?.tentative && stored) return { contextWindow: stored.contextWindow, ...(stored.maxOutputTokens ? { maxOutputTokens: stored.maxOutputTokens } : {}) };
        return limits && { contextWindow: limits.contextWindow, ...(limits.maxOutputTokens ? { maxOutputTokens: limits.maxOutputTokens } : {}) };
      },
    },
    usage: spec.usage,
    ...(spec.rules ? { rules: spec.rules } : {}),
    ...(options.summaryTimeoutMs === undefined ? {} : { summarizerTimeoutMs: options.summaryTimeoutMs }),
    complete: async (model, request) => stripThinking(await spec.complete({ provider: id, root, model, request, call: call(request.signal, longestTimerMs) })),
  });
  return Object.assign(plugin, { baseURL: root });
}
