import { completeWithChatCompletions, createLocalProvider, type LocalProvider, type LocalServerOptions, openaiCompatibleUsage } from '@ctxkit/provider-utils';
import { llamacppErrorRules } from './llamacpp-error-rules.ts';
import { discoverLlamaCppWindow } from './llamacpp-window.ts';

/** The address llama-server listens on by default. */
export const llamacppDefaultBaseURL = 'http://127.0.0.1:8080';

/** Options for {@link llamacppProvider}. */
export type LlamaCppProviderOptions<Id extends string = 'llamacpp'> = LocalServerOptions<Id>;

/** A llama.cpp server provider: slot context from `/props`, OpenAI-compatible usage, errors, summaries. */
export type LlamaCppProvider<Id extends string = 'llamacpp'> = LocalProvider<Id>;

/**
 * A provider for llama.cpp's `llama-server`. The window of a model is the context of a slot, the limit
 * one request meets: `/props` (`default_generation_settings.n_ctx`), else `meta` of `/v1/models`. In
 * router mode (several models) the model's own `/props?model=…` while it runs (asked with
 * `autoload=false`, so discovery never loads a model), else the `--ctx-size` it will start with.
 * Windows are stored (pass a file store to keep them across restarts) and asked again on every call.
 * Usage is the OpenAI-compatible `usage`, or the `timings` of builds that stream no usage.
 * @default baseURL 'http://127.0.0.1:8080', id 'llamacpp'
 * @throws CtxkitError INVALID_ARGUMENT for a bad baseURL, id or number option
 * @example
 * ```ts
 * const llamacpp = llamacppProvider({ store: fileStore('.ctxkit') }); // fileStore: from the store package
 * await llamacpp.contextWindow('qwen3-8b'); // { contextWindow: 8192, source: 'discovered' } for llama-server -c 16384 -np 2
 * llamacpp.classifyError(error, { model: 'qwen3-8b' }); // exceed_context_size_error → { kind: 'context_overflow', limitTokens: 8192, ... }
 * ```
 */
export function llamacppProvider<const Id extends string = 'llamacpp'>(options: LlamaCppProviderOptions<Id> = {}): LlamaCppProvider<NoInfer<Id>> {
  return createLocalProvider({
    id: 'llamacpp' as Id,
    defaultBaseURL: llamacppDefaultBaseURL,
    options,
    discover: discoverLlamaCppWindow,
    usage: openaiCompatibleUsage,
    rules: llamacppErrorRules,
    complete: completeWithChatCompletions,
  });
}
