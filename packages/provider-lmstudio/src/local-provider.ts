// The same file sits in provider-ollama, provider-lmstudio, provider-vllm and provider-llamacpp: provider
// packages may not import each other. Keep the copies identical; docs/decisions/0009-local-providers.md
// says what of it belongs in @ctxkit/provider-utils.
import { CtxkitError, type ModelLimits, memoryStore, type StorePlugin, type Usage } from '@ctxkit/core';
import {
  type ClassifierRule,
  type CtxkitProvider,
  createProviderPlugin,
  type DiscoveredLimits,
  type ProviderErrorClassification,
  type StoredWindow,
  type SummaryCompletionRequest,
} from '@ctxkit/provider-utils';

/** Options every local-server provider takes. */
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

/** What a provider's calls to its server share. */
export interface ServerConnection {
  /** The provider id, named in errors. */
  provider: string;
  /** The server root, without a trailing slash. */
  root: string;
  headers: Record<string, string>;
  /** Timeout of one discovery call. */
  requestTimeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

/** What a discovery function receives. */
export interface DiscoveryContext extends ServerConnection {
  model: string;
  signal: AbortSignal;
  /** What an earlier discovery stored for this model, if anything (a weaker answer must not replace it). */
  stored: StoredWindow['discovered'] | undefined;
  /** The window to assume for a model the server has not loaded and has no setting for. */
  defaultContextWindow: number;
}

/** What a summary completion receives. */
export interface CompletionContext extends ServerConnection {
  model: string;
  request: SummaryCompletionRequest;
  /** The call's own timer, a backstop: the summarizer's timeout and the request's signal end it first. */
  timeoutMs: number;
}

/**
 * A provider for a model server on the user's machine or network: the provider-utils provider, plus
 * the server it talks to and error classification told which model the request was for.
 */
export interface LocalProvider<Id extends string = string> extends CtxkitProvider<Id> {
  /** The server root the provider talks to. */
  readonly baseURL: string;
  /**
   * What an error means for the loop. An overflow that states the limit updates the stored window of
   * the model when the model is known: pass `{ model }`, or an error carrying `model`.
   */
  classifyError(error: unknown, context?: { model?: string }): ProviderErrorClassification;
}

/** What a provider package supplies to {@link createLocalProvider}. */
export interface LocalProviderSpec<Id extends string> {
  id: Id;
  /** The root URL when the user gives none. */
  defaultBaseURL: string;
  options: LocalServerOptions<Id>;
  /** Asks the server for a model's window. */
  discover(context: DiscoveryContext): Promise<DiscoveredLimits | undefined>;
  usage(response: unknown): Usage | undefined;
  /** The server's own error wordings, tried before the shared families. */
  rules: readonly ClassifierRule[];
  /** Writes a summary with one call to the server; returns the text. */
  complete(context: CompletionContext): Promise<string>;
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

/**
 * A store whose keys under `prefix` keep only [A-Za-z0-9_%-] after it. Model ids go into the window
 * cache's keys, and file stores refuse some (llama.cpp's default id is the model path, `../models/x.gguf`)
 * and cut others short (a `?`), which would lose or mix up windows.
 */
export function keySafeStore(store: StorePlugin, prefix: string): StorePlugin {
  const encode = (key: string) =>
    key.startsWith(prefix)
      ? prefix + encodeURIComponent(key.slice(prefix.length)).replace(/[.!'()*~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
      : key;
  return {
    specificationVersion: store.specificationVersion,
    kind: 'store',
    id: store.id,
    getItem: (key) => store.getItem(encode(key)),
    setItem: (key, value) => store.setItem(encode(key), value),
    removeItem: (key) => store.removeItem(encode(key)),
  };
}

/**
 * The answer without a leading reasoning block: local reasoning models (Qwen3, DeepSeek-R1) often send
 * `<think>…</think>` inside the content when the server does not split it out.
 */
export function stripThinking(text: string): string {
  return text.replace(/^\s*<think>[\s\S]*?<\/think>\s*/i, '');
}

/** The answer of `work` if it comes within `milliseconds`, else undefined; rejects when the signal fires first. */
function within<T>(work: Promise<T | undefined>, milliseconds: number, signal: AbortSignal | undefined, provider: string): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(undefined), milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CtxkitError({ code: 'ABORTED', source: provider, message: 'window lookup aborted by the caller', cause: signal?.reason }));
    };
    function finish(value: T | undefined) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    }
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(finish, () => finish(undefined));
  });
}

function checkPositive(provider: string, name: string, value: number | undefined, allowZero = false): void {
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && (value > 0 || (allowZero && value === 0)))) {
    throw invalid(provider, `${name} must be a finite number ${allowZero ? 'of zero or more' : 'above zero'}, got ${String(value)}`);
  }
}

// The summarizer's own timeout and the request's signal end a summary call; the call's timer is only a backstop.
const longestTimerMs = 2_147_483_647;

/**
 * Assembles a local-server provider on `createProviderPlugin` from its discovery, usage reader, error
 * rules and completion call. Windows are namespaced by server, persisted, and asked for again on every call.
 * @throws CtxkitError INVALID_ARGUMENT for a bad baseURL, id or number option
 */
export function createLocalProvider<Id extends string>(spec: LocalProviderSpec<Id>): LocalProvider<Id> {
  const { options } = spec;
  const id = (options.id ?? spec.id) as Id;
  if (typeof id !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/i.test(id)) throw invalid(spec.id, `id must be a name of letters, digits, '.', '_' or '-', got ${JSON.stringify(id)}`);
  const root = serverRoot(options.baseURL ?? spec.defaultBaseURL, id);
  const defaultContextWindow = options.defaultContextWindow ?? localDefaultContextWindow;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  checkPositive(id, 'defaultContextWindow', defaultContextWindow);
  checkPositive(id, 'requestTimeoutMs', requestTimeoutMs);
  checkPositive(id, 'summaryTimeoutMs', options.summaryTimeoutMs);
  checkPositive(id, 'discoveryTimeoutMs', options.discoveryTimeoutMs, true);
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const connection: ServerConnection = { provider: id, root, headers, requestTimeoutMs, ...(options.fetch ? { fetch: options.fetch } : {}) };

  // One namespace per server: two Ollama hosts serve the same model name with different windows.
  const namespace = `${id}@${new URL(root).host}`;
  const store = keySafeStore(options.store ?? memoryStore(), `windows:${namespace}:`);
  const keyOf = (model: string) => `windows:${namespace}:${model}`;
  // Models with a discovery running.
  const discovering = new Set<string>();
  const discoveryTimeoutMs = options.discoveryTimeoutMs ?? 3_000;
  const plugin: CtxkitProvider<Id> = createProviderPlugin({
    id,
    windows: {
      provider: namespace,
      store,
      defaultWindow: defaultContextWindow,
      // Local servers reload models with other settings at any time: ask on every call, in the background.
      refreshIntervalMs: 0,
      discoveryDeadlineMs: requestTimeoutMs * 3,
      ...(options.contextWindows ? { configured: options.contextWindows } : {}),
      ...(options.discoveryTimeoutMs === undefined ? {} : { discoveryTimeoutMs: options.discoveryTimeoutMs }),
      ...(options.onError ? { onError: options.onError } : {}),
      discover: (model, { signal }) => {
        const run = (async () => {
          let stored: StoredWindow['discovered'] | undefined;
          try {
            stored = (await store.getItem<StoredWindow>(keyOf(model)))?.discovered;
          } catch {
            // The cache reports store failures itself; discovery goes on without the stored record.
          }
          return spec.discover({ ...connection, model, signal, stored, defaultContextWindow });
        })();
        discovering.add(model);
        run.then(
          () => discovering.delete(model),
          () => discovering.delete(model),
        );
        return run;
      },
    },
    usage: spec.usage,
    rules: spec.rules,
    ...(options.summaryTimeoutMs === undefined ? {} : { summarizerTimeoutMs: options.summaryTimeoutMs }),
    complete: async (model, request) => stripThinking(await spec.complete({ ...connection, model, request, timeoutMs: longestTimerMs })),
  });

  const classifyShared = plugin.classifyError;
  const resolve = plugin.contextWindow;
  const provider: LocalProvider<Id> = Object.assign(plugin, {
    baseURL: root,
    async contextWindow(model: string, lookup: { signal?: AbortSignal } = {}): Promise<ModelLimits> {
      const started = Date.now();
      const limits = await resolve(model, lookup);
      // The cache waits only in the call that started a discovery; a lookup racing another (the summarizer
      // looks its window up when made) would get the default at once. Join the running one, within the
      // same bound: a lookup waits at most discoveryTimeoutMs in all.
      const left = discoveryTimeoutMs - (Date.now() - started);
      if (limits.source !== 'default' || !discovering.has(model) || left <= 0) return limits;
      return (await within(plugin.windows.refresh(model, lookup), left, lookup.signal, id)) ?? limits;
    },
    classifyError(error: unknown, context: { model?: string } = {}): ProviderErrorClassification {
      const model = context.model;
      // Learning is stored in the background: classification is synchronous by contract.
      if (model !== undefined) plugin.learnFromError(model, error).catch((learning: unknown) => options.onError?.(learning, model));
      return classifyShared(error);
    },
  });
  return provider;
}
