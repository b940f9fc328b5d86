import { checkWholeNumberOption, completeWithChatCompletions, createLocalProvider, type LocalProvider, type LocalServerOptions, openaiCompatibleUsage } from '@ctxkit/provider-utils';
import { lmstudioErrorRules } from './lmstudio-error-rules.ts';
import { discoverLmStudioWindow } from './lmstudio-window.ts';

/** The address LM Studio's server listens on by default. */
export const lmstudioDefaultBaseURL = 'http://127.0.0.1:1234';

/** Options for {@link lmstudioProvider}. */
export interface LmStudioProviderOptions<Id extends string = 'lmstudio'> extends LocalServerOptions<Id> {
  /**
   * The context a model gets when LM Studio loads it on first request (just-in-time loading), capped at
   * its maximum: set it to the default context length of your LM Studio settings.
   * @default defaultContextWindow (4_096)
   */
  unloadedContextLength?: number;
}

/** An LM Studio provider: loaded context lengths from `/api/v0/models`, OpenAI-compatible usage, errors, summaries. */
export type LmStudioProvider<Id extends string = 'lmstudio'> = LocalProvider<Id>;

/**
 * A provider for LM Studio's local server. The window of a model is its loaded context length
 * (`loaded_context_length` from `/api/v0/models`, or `/api/v1/models` on LM Studio 0.4+); a model not
 * loaded yet gets `unloadedContextLength`, capped at its `max_context_length`, until it loads. Windows are
 * stored (pass a file store to keep them across restarts) and asked again on every call. Usage is the
 * OpenAI-compatible `usage` (streamed with `stream_options: { include_usage: true }`).
 * @default baseURL 'http://127.0.0.1:1234', id 'lmstudio'
 * @throws CtxkitError INVALID_ARGUMENT for a bad baseURL, id or number option
 * @example
 * ```ts
 * const lmstudio = lmstudioProvider({ store: fileStore('.ctxkit') }); // fileStore: from the store package
 * await lmstudio.contextWindow('qwen3-8b'); // { contextWindow: 16384, source: 'discovered' } once loaded with 16384
 * lmstudio.usage(lastChunk);                 // { inputTokens: 1830, outputTokens: 96 }
 * ```
 */
export function lmstudioProvider<const Id extends string = 'lmstudio'>(options: LmStudioProviderOptions<Id> = {}): LmStudioProvider<NoInfer<Id>> {
  const unloadedContextLength = options.unloadedContextLength;
  checkWholeNumberOption(options.id ?? 'lmstudio', 'unloadedContextLength', unloadedContextLength);
  return createLocalProvider({
    id: 'lmstudio' as Id,
    defaultBaseURL: lmstudioDefaultBaseURL,
    options,
    discover: (context) => discoverLmStudioWindow({ ...context, unloadedContextLength }),
    usage: openaiCompatibleUsage,
    rules: lmstudioErrorRules,
    complete: completeWithChatCompletions,
  });
}
