import type { StorePlugin, Usage } from '@ctxkit/core';
import { apiKeyFrom, trimBaseURL } from './api-key.ts';
import type { SummaryCompletionRequest } from './api-summarizer.ts';
import type { ClassifierRule } from './classify-error.ts';
import { defaultRequestTimeoutMs, type RequestOptions } from './http.ts';
import type { CatalogLimits, CatalogLookup } from './model-catalog.ts';
import { unexpectedAnswer } from './provider-call-error.ts';
import { checkProviderId, createProviderPlugin, type ProviderPluginWithWindows } from './provider-plugin.ts';
import type { DiscoveredLimits, DiscoverOptions, StoredWindow } from './window-cache.ts';

/** Options every hosted-API provider takes (OpenAI, Anthropic, Gemini, OpenRouter, or your own). */
export interface HostedProviderOptions<Id extends string> {
  /** The plugin id and the namespace of its stored windows; give two accounts or hosts of one kind different ids. */
  id?: Id;
  /** The API key; by default read from the provider's environment variable at call time. */
  apiKey?: string;
  /** The API's base URL: another region, a gateway, or `http://127.0.0.1:PORT/...` in tests. */
  baseURL?: string;
  /** Extra headers on every call. */
  headers?: Record<string, string>;
  /** Where discovered and learned windows persist. @default memoryStore() */
  store?: StorePlugin;
  /** Windows you know better, per model id; they win over everything. A number is the context window. */
  windows?: Readonly<Record<string, number | CatalogLimits>>;
  /** A catalog consulted before the built-in one. */
  catalog?: CatalogLookup;
  /** The window of a model no catalog knows. @default 32_768 */
  defaultWindow?: number;
  /** Ask the API for a model's limits, where it reports them. @default true, unless the provider says otherwise (OpenAI's own API reports none) */
  discovery?: boolean;
  /** How long a first window lookup waits for discovery. @default 3_000 */
  discoveryTimeoutMs?: number;
  /** A discovery still running after this long is abandoned and reported to `onError` as a TIMEOUT naming the URL it waited on. @default 30_000 */
  discoveryDeadlineMs?: number;
  /** How often a discovered window is asked for again. @default 300_000 */
  refreshIntervalMs?: number;
  /** Told about discovery and store failures, which never fail a window lookup. */
  onError?: (error: unknown, model: string) => void;
  /** Timeout of each API call. @default 60_000 */
  timeoutMs?: number;
  /** A fetch to use instead of the global one (a proxy agent, a recorder). */
  fetch?: typeof globalThis.fetch;
}

/** What a hosted provider's discovery receives. */
export interface HostedDiscoveryContext {
  /** The provider id, named in errors. */
  provider: string;
  /** The base URL, without a trailing slash. */
  baseURL: string;
  model: string;
  /** Fires at the discovery's deadline. */
  signal: AbortSignal;
  /** What an earlier discovery stored for this model, if anything. */
  stored: StoredWindow['discovered'] | undefined;
  /**
   * The options of one call (provider, headers with the key, signal, timeout, fetch), to spread into
   * `requestJson`. The key is read now; `keyOptional` sends none when none is set (a public models list).
   * @throws CtxkitError INVALID_ARGUMENT when no key is set and it is not optional
   */
  call(options?: { keyOptional?: boolean }): RequestOptions;
}

/** What a hosted provider's summary completion receives. */
export interface HostedCompletionContext {
  /** The provider id, named in errors. */
  provider: string;
  /** The base URL, without a trailing slash. */
  baseURL: string;
  model: string;
  request: SummaryCompletionRequest;
  /** The options of the call: provider, headers with the key, the request's signal, the timeout, fetch. */
  call: RequestOptions;
}

/** What a provider package supplies to {@link createHostedProvider}. */
export interface HostedProviderSpec<Id extends string> {
  /** The id when the user gives none. */
  id: Id;
  /** The base URL when the user gives none. */
  defaultBaseURL: string;
  options: HostedProviderOptions<Id>;
  /** The environment variables the key is read from, in order, when `apiKey` is not given. */
  apiKeyVariables: string | readonly string[];
  /** The headers that carry the key, and anything else every call sends (an API version, app attribution). */
  authorize(apiKey: string): Record<string, string>;
  /** The built-in catalog, consulted after `options.catalog`. */
  catalog?: CatalogLookup;
  /** Asks the API for a model's limits; undefined when it does not know them. */
  discover?(context: HostedDiscoveryContext): Promise<DiscoveredLimits | undefined>;
  /** Whether `discover` runs when `options.discovery` is not given. @default true */
  discoveryByDefault?: boolean;
  usage(response: unknown): Usage | undefined;
  /** The API's own error wordings, tried before the shared families. */
  rules?: readonly ClassifierRule[];
  /** Writes a summary with one call to the API; returns the text. Without it the provider has no summarizer. */
  complete?(context: HostedCompletionContext): Promise<string>;
}

/**
 * A provider for a hosted model API, on {@link createProviderPlugin}, from what differs between APIs:
 * how the key is sent, the built-in catalog, discovery, usage and the summary call. The options every
 * hosted provider shares ({@link HostedProviderOptions}) are read here once: the key at call time, the
 * user's windows and catalog before the built-in one, discovery and its timings, timeout and fetch.
 * @throws CtxkitError INVALID_ARGUMENT for an id that is not a name of letters, digits, `.`, `_` or `-`, or a bad window option
 * @example
 * ```ts
 * export function myApiProvider<const Id extends string = 'my-api'>(options: HostedProviderOptions<Id> = {}): ProviderPluginWithWindows<NoInfer<Id>> {
 *   return createHostedProvider({
 *     id: 'my-api' as Id,
 *     defaultBaseURL: 'https://api.example.com/v1',
 *     options,
 *     apiKeyVariables: 'MY_API_KEY',
 *     authorize: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
 *     discover: async ({ baseURL, model, call }) => ({ contextWindow: (await requestJson<{ context: number }>(`${baseURL}/models/${model}`, call())).context }),
 *     usage: openaiCompatibleUsage,
 *   });
 * }
 * ```
 */
export function createHostedProvider<Id extends string>(spec: HostedProviderSpec<Id>): ProviderPluginWithWindows<Id> {
  const { options } = spec;
  const id = (options.id ?? spec.id) as Id;
  checkProviderId(id, spec.id);
  const baseURL = trimBaseURL(options.baseURL ?? spec.defaultBaseURL);
  const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};

  function headers(keyOptional: boolean): Record<string, string> {
    let apiKey: string;
    try {
      apiKey = apiKeyFrom(options.apiKey, spec.apiKeyVariables, id);
    } catch (error) {
      if (!keyOptional) throw error;
      return { ...options.headers };
    }
    return { ...spec.authorize(apiKey), ...options.headers };
  }
  const call = (signal: AbortSignal, keyOptional = false): RequestOptions => ({ provider: id, headers: headers(keyOptional), signal, timeoutMs, ...fetchOption });
  // A discovery's calls tell the window cache the URL they wait on, so its deadline names it.
  const discoveryCall = (signal: AbortSignal, keyOptional: boolean, requesting: DiscoverOptions['requesting']): RequestOptions => {
    const plain = call(signal, keyOptional);
    if (!requesting) return plain;
    const fetchFunction = options.fetch;
    return {
      ...plain,
      fetch: (input, init) => {
        requesting(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        return (fetchFunction ?? globalThis.fetch)(input, init);
      },
    };
  };

  const builtIn = spec.catalog;
  const userCatalog = options.catalog;
  const catalog: CatalogLookup | undefined = userCatalog && builtIn ? (model) => userCatalog(model) ?? builtIn(model) : (userCatalog ?? builtIn);
  const discover = spec.discover;
  const discovering = discover && (options.discovery ?? spec.discoveryByDefault ?? true);
  const complete = spec.complete;

  return createProviderPlugin({
    id,
    windows: {
      ...(catalog ? { catalog } : {}),
      ...(options.store ? { store: options.store } : {}),
      ...(options.windows ? { configured: options.windows } : {}),
      ...(options.defaultWindow === undefined ? {} : { defaultWindow: options.defaultWindow }),
      ...(discovering
        ? {
            discover: (model: string, { signal, stored, requesting }: DiscoverOptions) =>
              discover({ provider: id, baseURL, model, signal, stored, call: (callOptions = {}) => discoveryCall(signal, callOptions.keyOptional ?? false, requesting) }).catch((error: unknown) =>
                Promise.reject(unexpectedAnswer(error, { provider: id, url: baseURL, what: `discovery of ${model}` })),
              ),
          }
        : {}),
      ...(options.discoveryTimeoutMs === undefined ? {} : { discoveryTimeoutMs: options.discoveryTimeoutMs }),
      ...(options.discoveryDeadlineMs === undefined ? {} : { discoveryDeadlineMs: options.discoveryDeadlineMs }),
      ...(options.refreshIntervalMs === undefined ? {} : { refreshIntervalMs: options.refreshIntervalMs }),
      ...(options.onError ? { onError: options.onError } : {}),
    },
    usage: spec.usage,
    ...(spec.rules ? { rules: spec.rules } : {}),
    ...(complete ? { complete: (model: string, request: SummaryCompletionRequest) => complete({ provider: id, baseURL, model, request, call: call(request.signal) }) } : {}),
  });
}
