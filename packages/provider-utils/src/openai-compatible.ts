import { CtxkitError, type Usage } from '@ctxkit/core';
import type { SummaryCompletionRequest } from './api-summarizer.ts';
import type { HostedCompletionContext } from './hosted-provider.ts';
import { requestJson } from './http.ts';
import type { LocalCompletionContext } from './local-provider.ts';
import { ProviderCallError } from './provider-call-error.ts';
import { lastUsage, tokenCount, usageCandidates } from './usage-fields.ts';

/** The usage object of an OpenAI-compatible response: Chat Completions or Responses. */
export interface CompatibleUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number | null } | null;
}

/** llama.cpp's per-response timings: prompt tokens evaluated, reused from the cache, and predicted. */
export interface CompatibleTimings {
  prompt_n?: number;
  cache_n?: number;
  predicted_n?: number;
}

function usageOf(usage: CompatibleUsage): Usage | undefined {
  const input = tokenCount(usage.prompt_tokens) ?? tokenCount(usage.input_tokens);
  if (input === undefined) return undefined;
  const cached = tokenCount(usage.prompt_tokens_details?.cached_tokens) ?? tokenCount(usage.input_tokens_details?.cached_tokens);
  const output = tokenCount(usage.completion_tokens) ?? tokenCount(usage.output_tokens);
  return { inputTokens: input, ...(cached ? { cachedInputTokens: cached } : {}), ...(output === undefined ? {} : { outputTokens: output }) };
}

function fromObject(value: unknown): Usage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { usage?: CompatibleUsage | null; timings?: CompatibleTimings | null; response?: unknown };
  if (record.usage && typeof record.usage === 'object') {
    const usage = usageOf(record.usage);
    if (usage) return usage;
  }
  // A Responses stream ends with `response.completed`, whose `response` carries the usage.
  if (record.response && typeof record.response === 'object') return fromObject(record.response);
  // Older llama.cpp builds stream no usage, but always their timings.
  const evaluated = tokenCount(record.timings?.prompt_n);
  if (evaluated !== undefined) {
    const cached = tokenCount(record.timings?.cache_n) ?? 0;
    const output = tokenCount(record.timings?.predicted_n);
    return { inputTokens: evaluated + cached, ...(cached ? { cachedInputTokens: cached } : {}), ...(output === undefined ? {} : { outputTokens: output }) };
  }
  return undefined;
}

/**
 * The tokens an OpenAI-compatible server counted for one response: `usage.prompt_tokens` (cached ones
 * included, `prompt_tokens_details.cached_tokens` reported apart), or `usage.input_tokens` of the
 * Responses API. For a stream, pass the final chunk (sent with `stream_options: { include_usage: true }`),
 * all the chunks, or the SSE text; undefined when no chunk carries usage.
 * @example
 * ```ts
 * openaiCompatibleUsage({ usage: { prompt_tokens: 1830, completion_tokens: 96, prompt_tokens_details: { cached_tokens: 1536 } } });
 * // { inputTokens: 1830, cachedInputTokens: 1536, outputTokens: 96 }
 * ```
 */
export function openaiCompatibleUsage(response: unknown): Usage | undefined {
  return lastUsage(usageCandidates(response), fromObject);
}

/** The messages of a summary call: the instructions as the system message, the transcript as the one user message. */
export function summaryMessages(request: SummaryCompletionRequest): { role: 'system' | 'user'; content: string }[] {
  return [
    { role: 'system', content: request.system },
    { role: 'user', content: request.prompt },
  ];
}

/**
 * One `POST {baseURL}/chat/completions` for a summary from a hosted Chat Completions API (OpenAI,
 * OpenRouter, an OpenAI-compatible host): the answer's text, or '' when it has none.
 * @default maxTokensField 'max_tokens' (OpenAI itself wants 'max_completion_tokens')
 * @throws ProviderCallError for a failed call
 */
export async function completeWithHostedChat(context: HostedCompletionContext, maxTokensField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens'): Promise<string> {
  const { request } = context;
  const response = await requestJson<{ choices?: { message?: { content?: string | null } }[] }>(`${context.baseURL}/chat/completions`, {
    ...context.call,
    body: {
      model: context.model,
      messages: summaryMessages(request),
      ...(request.maxOutputTokens ? { [maxTokensField]: request.maxOutputTokens } : {}),
    },
  });
  return response.choices?.[0]?.message?.content ?? '';
}

interface ChatCompletionBody {
  choices?: { message?: { content?: unknown } | null; finish_reason?: string | null }[] | null;
  error?: unknown;
}

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('');
  return '';
}

/**
 * One `POST /v1/chat/completions` for a summary from an OpenAI-compatible local server (LM Studio,
 * vLLM, llama.cpp): the instructions as the system message, the transcript as the user message, not
 * streamed. An answer cut off at its output limit is an error, not a summary.
 * @throws ProviderCallError for a failed call or an error inside a 200 answer; CtxkitError PROVIDER_ERROR for a cut-off answer
 */
export async function completeWithChatCompletions(context: LocalCompletionContext): Promise<string> {
  const { request } = context;
  const url = `${context.root}/v1/chat/completions`;
  const body = await requestJson<ChatCompletionBody>(url, {
    ...context.call,
    body: {
      model: context.model,
      messages: summaryMessages(request),
      stream: false,
      ...(request.maxOutputTokens === undefined ? {} : { max_tokens: request.maxOutputTokens }),
    },
  });
  if (body.error !== undefined && body.error !== null) {
    const text = JSON.stringify(body);
    throw new ProviderCallError({ provider: context.provider, failure: 'http', url, status: 200, body: text, message: `${url} answered 200 with an error: ${text.slice(0, 300)}` });
  }
  const choice = body.choices?.[0];
  if (choice?.finish_reason === 'length') {
    throw new CtxkitError({
      code: 'PROVIDER_ERROR',
      source: context.provider,
      message: `${url}: the summary by ${context.model} was cut off at its output limit${request.maxOutputTokens ? ` (${request.maxOutputTokens} tokens)` : ''}`,
    });
  }
  return textOfContent(choice?.message?.content);
}
