import {
  completeWithHostedChat,
  createHostedProvider,
  discoveredLimits,
  type HostedProviderOptions,
  type ProviderPluginWithWindows,
  requestJson,
  requestOptionalJson,
  trimBaseURL,
} from '@ctxkit/provider-utils';
import { openaiCatalog } from './openai-catalog.ts';
import { openaiUsage } from './openai-usage.ts';

/** The OpenAI API's base URL. */
export const openaiBaseURL = 'https://api.openai.com/v1';

/** Options for {@link openaiProvider}: the options every hosted provider takes, and OpenAI's own. */
export interface OpenAIProviderOptions<Id extends string = 'openai'> extends HostedProviderOptions<Id> {
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** Sent as `OpenAI-Project`. */
  project?: string;
  /** The API the summarizer calls. @default 'chat' */
  summaryApi?: 'chat' | 'responses';
  /** The output-budget field of a chat call. @default 'max_completion_tokens' on OpenAI, 'max_tokens' elsewhere */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
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

/**
 * The OpenAI provider (Chat Completions and Responses), also for OpenAI-compatible hosts such as DeepSeek:
 * windows per model from a maintained catalog (OpenAI reports none), usage (cached tokens included,
 * streamed too), error classification with window learning, and a summarizer. For a host other than
 * OpenAI (set `id` and `baseURL`), windows are read from `GET {baseURL}/models` where it lists them
 * (`context_length`, `context_window`, `max_model_len`); OpenAI itself lists none and is never asked.
 * @default id 'openai', baseURL 'https://api.openai.com/v1', apiKey process.env.OPENAI_API_KEY (read at call time), discovery on for a baseURL other than OpenAI's
 * @throws CtxkitError INVALID_ARGUMENT for a bad id or window option
 * @example
 * ```ts
 * const openai = openaiProvider({ store: fileStore('.ctxkit') });
 * await openai.contextWindow('gpt-4o-2024-08-06'); // { contextWindow: 128_000, maxOutputTokens: 16_384, source: 'catalog' }
 * openai.usage(completion);                          // { inputTokens, cachedInputTokens, outputTokens }
 * const deepseek = openaiProvider({ id: 'deepseek', baseURL: 'https://api.deepseek.com/v1', apiKey: process.env.DEEPSEEK_API_KEY });
 * ```
 */
export function openaiProvider<const Id extends string = 'openai'>(options: OpenAIProviderOptions<Id> = {}): ProviderPluginWithWindows<NoInfer<Id>> {
  const isOpenAI = trimBaseURL(options.baseURL ?? openaiBaseURL) === openaiBaseURL;
  const maxTokensField = options.maxTokensField ?? (isOpenAI ? 'max_completion_tokens' : 'max_tokens');
  return createHostedProvider({
    id: 'openai' as Id,
    defaultBaseURL: openaiBaseURL,
    options,
    apiKeyVariables: 'OPENAI_API_KEY',
    authorize: (apiKey) => ({
      authorization: `Bearer ${apiKey}`,
      ...(options.organization ? { 'openai-organization': options.organization } : {}),
      ...(options.project ? { 'openai-project': options.project } : {}),
    }),
    catalog: openaiCatalog,
    discoveryByDefault: !isOpenAI,
    async discover({ baseURL, model, call }) {
      // A host without a models list knows nothing to tell: the catalog answers.
      const list = await requestOptionalJson<{ data?: ListedModel[] }>(`${baseURL}/models`, { ...call(), missing: [404, 405] });
      const entry = list?.data?.find((listed) => listed.id === model);
      if (!entry) return undefined;
      const contextWindow = [entry.context_length, entry.context_window, entry.max_model_len, entry.max_context_length].find((value) => discoveredLimits(value));
      const maxOutputTokens = [entry.max_completion_tokens, entry.max_output_tokens].find((value) => discoveredLimits(value));
      return discoveredLimits(contextWindow, maxOutputTokens);
    },
    usage: openaiUsage,
    async complete(context) {
      const { baseURL, model, request, call } = context;
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
      return completeWithHostedChat(context, maxTokensField);
    },
  });
}
