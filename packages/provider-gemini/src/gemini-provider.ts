import { CtxkitError } from '@ctxkit/core';
import { createHostedProvider, discoveredLimits, type HostedProviderOptions, type ProviderPluginWithWindows, requestJson, requestOptionalJson } from '@ctxkit/provider-utils';
import { geminiCatalog } from './gemini-catalog.ts';
import { geminiUsage } from './gemini-usage.ts';

/** The Gemini API's base URL. */
export const geminiBaseURL = 'https://generativelanguage.googleapis.com/v1beta';

/** Options for {@link geminiProvider}: the options every hosted provider takes. */
export type GeminiProviderOptions<Id extends string = 'gemini'> = HostedProviderOptions<Id>;

interface ModelInfo {
  inputTokenLimit?: unknown;
  outputTokenLimit?: unknown;
}

interface GenerateContentResponse {
  candidates?: { content?: { parts?: { text?: string; thought?: boolean }[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
}

/** `gemini-2.5-pro` and `models/gemini-2.5-pro` name the same model; the API paths want the short form. */
const shortName = (model: string) => model.replace(/^models\//, '');

/**
 * The Gemini provider (Gemini API): windows from models.get (persisted, catalog when it cannot be
 * asked), usage from `usageMetadata`, error classification with window learning, and a summarizer on
 * generateContent. Discovery asks models.get (`inputTokenLimit`, `outputTokenLimit`) unless `discovery: false`.
 * @default id 'gemini', baseURL 'https://generativelanguage.googleapis.com/v1beta', apiKey process.env.GEMINI_API_KEY, else GOOGLE_GENERATIVE_AI_API_KEY (read at call time)
 * @throws CtxkitError INVALID_ARGUMENT for a bad id or window option
 * @example
 * ```ts
 * const gemini = geminiProvider({ store: fileStore('.ctxkit') });
 * await gemini.contextWindow('gemini-2.5-flash'); // { contextWindow: 1_048_576, maxOutputTokens: 65_536, source: 'discovered' }
 * ```
 */
export function geminiProvider<const Id extends string = 'gemini'>(options: GeminiProviderOptions<Id> = {}): ProviderPluginWithWindows<NoInfer<Id>> {
  return createHostedProvider({
    id: 'gemini' as Id,
    defaultBaseURL: geminiBaseURL,
    options,
    apiKeyVariables: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    authorize: (apiKey) => ({ 'x-goog-api-key': apiKey }),
    catalog: geminiCatalog,
    async discover({ baseURL, model, call }) {
      const info = await requestOptionalJson<ModelInfo>(`${baseURL}/models/${encodeURIComponent(shortName(model))}`, call());
      return info && discoveredLimits(info.inputTokenLimit, info.outputTokenLimit);
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
