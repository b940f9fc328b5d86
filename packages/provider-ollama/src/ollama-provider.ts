import { CtxkitError } from '@ctxkit/core';
import { checkWholeNumberOption, createLocalProvider, type LocalCompletionContext, type LocalProvider, type LocalServerOptions, requestJson, summaryMessages } from '@ctxkit/provider-utils';
import { ollamaErrorRules } from './ollama-error-rules.ts';
import { ollamaUsage } from './ollama-usage.ts';
import { discoverOllamaWindow } from './ollama-window.ts';

/** The address Ollama listens on by default. */
export const ollamaDefaultBaseURL = 'http://127.0.0.1:11434';

/** Options for {@link ollamaProvider}. */
export interface OllamaProviderOptions<Id extends string = 'ollama'> extends LocalServerOptions<Id> {
  /**
   * The `options.num_ctx` your requests set, if they set one: that is then the window (capped at the
   * model's trained length), whatever the server would pick. Summaries are sent with it too.
   */
  numCtx?: number;
}

/** An Ollama provider: windows from `/api/ps` and `/api/show`, usage from `prompt_eval_count`, errors, summaries. */
export type OllamaProvider<Id extends string = 'ollama'> = LocalProvider<Id>;

interface OllamaChatResponse {
  message?: { content?: string | null } | null;
  done_reason?: string;
  error?: string;
}

async function completeWithOllama(context: LocalCompletionContext, numCtx: number | undefined): Promise<string> {
  const { request } = context;
  const options = {
    ...(request.maxOutputTokens === undefined ? {} : { num_predict: request.maxOutputTokens }),
    ...(numCtx === undefined ? {} : { num_ctx: numCtx }),
  };
  const url = `${context.root}/api/chat`;
  const body = await requestJson<OllamaChatResponse>(url, {
    ...context.call,
    body: {
      model: context.model,
      messages: summaryMessages(request),
      stream: false,
      ...(Object.keys(options).length > 0 ? { options } : {}),
    },
  });
  if (body.done_reason === 'length') {
    throw new CtxkitError({
      code: 'PROVIDER_ERROR',
      source: context.provider,
      message: `${url}: the summary by ${context.model} was cut off at its output limit${request.maxOutputTokens ? ` (${request.maxOutputTokens} tokens)` : ''}`,
    });
  }
  return body.message?.content ?? '';
}

/**
 * A provider for an Ollama server. The window of a model is what Ollama serves it with: the context of
 * the loaded model (`/api/ps`), else the Modelfile's `num_ctx` or the server default, capped at the
 * trained length (`/api/show`); your own `numCtx` when your requests set `options.num_ctx`. Windows are
 * stored (pass a file store to keep them across restarts) and asked again on every call.
 * Usage is `prompt_eval_count`, a lower bound.
 * @default baseURL 'http://127.0.0.1:11434', id 'ollama'
 * @throws CtxkitError INVALID_ARGUMENT for a bad baseURL, id or number option
 * @example
 * ```ts
 * const ollama = ollamaProvider({ store: fileStore('.ctxkit') }); // fileStore: from the store package
 * await ollama.contextWindow('qwen3:8b');      // { contextWindow: 8192, source: 'discovered' } when loaded with 8192
 * ollama.usage(finalStreamLine);               // { inputTokens: 1830, outputTokens: 96, inputIsLowerBound: true }
 * ollama.classifyError(error, { model: 'qwen3:8b' }); // { kind: 'offline', fallback: true, ... } when the server is down
 * ```
 */
export function ollamaProvider<const Id extends string = 'ollama'>(options: OllamaProviderOptions<Id> = {}): OllamaProvider<NoInfer<Id>> {
  const numCtx = options.numCtx;
  checkWholeNumberOption(options.id ?? 'ollama', 'numCtx', numCtx);
  return createLocalProvider({
    id: 'ollama' as Id,
    defaultBaseURL: ollamaDefaultBaseURL,
    options,
    discover: (context) => discoverOllamaWindow({ ...context, numCtx }),
    usage: ollamaUsage,
    rules: ollamaErrorRules,
    complete: (context) => completeWithOllama(context, numCtx),
  });
}
