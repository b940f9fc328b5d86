import { createHostedProvider, discoveredLimits, type HostedProviderOptions, ProviderCallError, type ProviderPluginWithWindows, requestJson, requestOptionalJson } from '@ctxkit/provider-utils';
import { anthropicCatalog } from './anthropic-catalog.ts';
import { anthropicUsage } from './anthropic-usage.ts';

/** The Anthropic API's base URL. */
export const anthropicBaseURL = 'https://api.anthropic.com/v1';

/** Options for {@link anthropicProvider}: the options every hosted provider takes, and Anthropic's own. */
export interface AnthropicProviderOptions<Id extends string = 'anthropic'> extends HostedProviderOptions<Id> {
  /** The `anthropic-version` header. @default '2023-06-01' */
  version?: string;
  /** The summarizer's `max_tokens` when the request gives none (Anthropic requires one). @default 4_096 */
  summaryMaxTokens?: number;
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

/**
 * The Anthropic provider: windows from the Models API (persisted, catalog when it cannot be asked),
 * usage with cache writes and reads, error classification with window learning (the stop reason
 * `model_context_window_exceeded` included), and a summarizer on the Messages API. Discovery asks the
 * Models API (`GET /v1/models/{id}`: `max_input_tokens`, `max_tokens`) unless `discovery: false`.
 * @default id 'anthropic', baseURL 'https://api.anthropic.com/v1', apiKey process.env.ANTHROPIC_API_KEY (read at call time)
 * @throws CtxkitError INVALID_ARGUMENT for a bad id or window option
 * @example
 * ```ts
 * const anthropic = anthropicProvider({ store: fileStore('.ctxkit') });
 * await anthropic.contextWindow('claude-sonnet-4-20250514'); // { contextWindow: 200_000, maxOutputTokens: 64_000, source: 'discovered' }
 * anthropic.usage(message); // { inputTokens: input + cache writes + cache reads, cachedInputTokens, outputTokens }
 * ```
 */
export function anthropicProvider<const Id extends string = 'anthropic'>(options: AnthropicProviderOptions<Id> = {}): ProviderPluginWithWindows<NoInfer<Id>> {
  return createHostedProvider({
    id: 'anthropic' as Id,
    defaultBaseURL: anthropicBaseURL,
    options,
    apiKeyVariables: 'ANTHROPIC_API_KEY',
    authorize: (apiKey) => ({ 'x-api-key': apiKey, 'anthropic-version': options.version ?? '2023-06-01' }),
    catalog: anthropicCatalog,
    async discover({ baseURL, model, call }) {
      const info = await requestOptionalJson<ModelInfo>(`${baseURL}/models/${encodeURIComponent(model)}`, call());
      // The fields may be null (older models, some deployments): the catalog answers then.
      return info && discoveredLimits(info.max_input_tokens, info.max_tokens);
    },
    usage: anthropicUsage,
    async complete({ provider, baseURL, model, request, call }) {
      const url = `${baseURL}/messages`;
      const response = await requestJson<MessageResponse>(url, {
        ...call,
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
          provider,
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
    },
  });
}
