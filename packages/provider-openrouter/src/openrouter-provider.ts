import { completeWithHostedChat, createHostedProvider, discoveredLimits, type HostedProviderOptions, type ProviderPluginWithWindows, requestJson, type RequestOptions } from '@ctxkit/provider-utils';
import { openrouterCatalog } from './openrouter-catalog.ts';
import { openrouterUsage } from './openrouter-usage.ts';

/** The OpenRouter API's base URL. */
export const openrouterBaseURL = 'https://openrouter.ai/api/v1';

/** Options for {@link openrouterProvider}: the options every hosted provider takes, and OpenRouter's own. */
export interface OpenRouterProviderOptions<Id extends string = 'openrouter'> extends HostedProviderOptions<Id> {
  /** Your app's URL and name, sent as `HTTP-Referer` and `X-Title` (OpenRouter's app attribution). */
  appUrl?: string;
  appName?: string;
}

interface ListedModel {
  id?: string;
  canonical_slug?: string;
  context_length?: number | null;
  top_provider?: { context_length?: number | null; max_completion_tokens?: number | null } | null;
}

/** One models list serves every model for this long: it is a few hundred entries, fetched once. */
const listReuseMs = 60_000;

/**
 * The OpenRouter provider: windows from the models list (the top provider's window first, since that
 * is what serves), usage as in Chat Completions, error classification that sees overflows wrapped in a
 * 502 or inside a 200 stream, window learning when an upstream serves less than advertised, and a summarizer.
 * Discovery reads `GET /models` (`top_provider.context_length` first) unless `discovery: false`.
 * @default id 'openrouter', baseURL 'https://openrouter.ai/api/v1', apiKey process.env.OPENROUTER_API_KEY (read at call time)
 * @throws CtxkitError INVALID_ARGUMENT for a bad id or window option
 * @example
 * ```ts
 * const openrouter = openrouterProvider({ store: fileStore('.ctxkit'), appName: 'my-agent' });
 * await openrouter.contextWindow('anthropic/claude-sonnet-4'); // { contextWindow: 200_000, maxOutputTokens: 64_000, source: 'discovered' }
 * ```
 */
export function openrouterProvider<const Id extends string = 'openrouter'>(options: OpenRouterProviderOptions<Id> = {}): ProviderPluginWithWindows<NoInfer<Id>> {
  let list: { at: number; models: Promise<ListedModel[]> } | undefined;
  function models(url: string, call: RequestOptions): Promise<ListedModel[]> {
    if (list && Date.now() - list.at < listReuseMs) return list.models;
    const current = { at: Date.now(), models: requestJson<{ data?: ListedModel[] }>(url, call).then((answer) => answer.data ?? []) };
    list = current;
    current.models.catch(() => {
      if (list === current) list = undefined;
    });
    return current.models;
  }

  return createHostedProvider({
    id: 'openrouter' as Id,
    defaultBaseURL: openrouterBaseURL,
    options,
    apiKeyVariables: 'OPENROUTER_API_KEY',
    authorize: (apiKey) => ({
      authorization: `Bearer ${apiKey}`,
      ...(options.appUrl ? { 'http-referer': options.appUrl } : {}),
      ...(options.appName ? { 'x-title': options.appName } : {}),
    }),
    catalog: openrouterCatalog,
    async discover({ baseURL, model, call }) {
      // The models list needs no key; it is sent when there is one.
      const entry = (await models(`${baseURL}/models`, call({ keyOptional: true }))).find((listed) => listed.id === model || listed.canonical_slug === model);
      if (!entry) return undefined;
      // The top provider is the endpoint that serves by default; the model's own figure is the largest any endpoint offers.
      return discoveredLimits(entry.top_provider?.context_length, entry.top_provider?.max_completion_tokens) ?? discoveredLimits(entry.context_length, entry.top_provider?.max_completion_tokens);
    },
    usage: openrouterUsage,
    complete: (context) => completeWithHostedChat(context),
  });
}
