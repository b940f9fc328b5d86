import { completeWithChatCompletions, createLocalProvider, type LocalProvider, type LocalServerOptions, openaiCompatibleUsage } from '@ctxkit/provider-utils';
import { vllmErrorRules } from './vllm-error-rules.ts';
import { discoverVllmWindow } from './vllm-window.ts';

/** The address `vllm serve` listens on by default. */
export const vllmDefaultBaseURL = 'http://127.0.0.1:8000';

/** Options for {@link vllmProvider}. */
export type VllmProviderOptions<Id extends string = 'vllm'> = LocalServerOptions<Id>;

/** A vLLM provider: `max_model_len` from `/v1/models`, OpenAI-compatible usage, errors, summaries. */
export type VllmProvider<Id extends string = 'vllm'> = LocalProvider<Id>;

/**
 * A provider for a vLLM OpenAI-compatible server. The window of a model is the `max_model_len` it is
 * served with (`/v1/models`; a LoRA adapter has its base model's). Windows are stored (pass a file store
 * to keep them across restarts) and asked again on every call. Usage is the OpenAI-compatible `usage`
 * (streamed with `stream_options: { include_usage: true }`), cached prompt tokens apart when the server
 * runs with `--enable-prompt-tokens-details`.
 * @default baseURL 'http://127.0.0.1:8000', id 'vllm'
 * @throws CtxkitError INVALID_ARGUMENT for a bad baseURL, id or number option
 * @example
 * ```ts
 * const vllm = vllmProvider({ apiKey: process.env.VLLM_API_KEY, store: fileStore('.ctxkit') }); // fileStore: from the store package
 * await vllm.contextWindow('Qwen/Qwen2.5-Coder-32B-Instruct'); // { contextWindow: 32768, source: 'discovered' }
 * vllm.classifyError(error, { model: 'Qwen/Qwen2.5-Coder-32B-Instruct' }); // { kind: 'context_overflow', limitTokens: 32768, ... }
 * ```
 */
export function vllmProvider<const Id extends string = 'vllm'>(options: VllmProviderOptions<Id> = {}): VllmProvider<NoInfer<Id>> {
  return createLocalProvider({
    id: 'vllm' as Id,
    defaultBaseURL: vllmDefaultBaseURL,
    options,
    discover: discoverVllmWindow,
    usage: openaiCompatibleUsage,
    rules: vllmErrorRules,
    complete: completeWithChatCompletions,
  });
}
