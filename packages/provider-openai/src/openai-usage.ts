import type { Usage } from '@ctxkit/core';
import { lastUsage, tokenCount, usageFrom } from '@ctxkit/provider-utils';

interface OpenAIUsageFields {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
  input_tokens?: unknown;
  output_tokens?: unknown;
  input_tokens_details?: { cached_tokens?: unknown } | null;
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens?: unknown;
}

function fromFields(usage: OpenAIUsageFields | null | undefined): Usage | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  // Chat Completions says prompt/completion, Responses says input/output; cached tokens are part of the input in both.
  const inputTokens = tokenCount(usage.prompt_tokens) ?? tokenCount(usage.input_tokens);
  if (inputTokens === undefined) return undefined;
  const cachedInputTokens = tokenCount(usage.prompt_tokens_details?.cached_tokens) ?? tokenCount(usage.input_tokens_details?.cached_tokens) ?? tokenCount(usage.prompt_cache_hit_tokens);
  const outputTokens = tokenCount(usage.completion_tokens) ?? tokenCount(usage.output_tokens);
  return usageFrom(inputTokens, cachedInputTokens, outputTokens);
}

/**
 * The input tokens OpenAI counted, cached ones included and also reported apart: from a Chat
 * Completions response or its final stream chunk (sent with `stream_options: { include_usage: true }`),
 * a Responses API response or its `response.completed` event, or a list of chunks or events (the last
 * one with usage wins). Undefined when there is no usage (a chunk before the last).
 * @example openaiUsage({ usage: { prompt_tokens: 1200, completion_tokens: 80, prompt_tokens_details: { cached_tokens: 1024 } } })
 * // { inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 80 }
 */
export function openaiUsage(response: unknown): Usage | undefined {
  if (Array.isArray(response)) return lastUsage(response, openaiUsage);
  if (!response || typeof response !== 'object') return undefined;
  const record = response as { type?: unknown; response?: { usage?: OpenAIUsageFields }; usage?: OpenAIUsageFields; data?: unknown };
  if (typeof record.type === 'string' && record.type.startsWith('response.') && record.response) return fromFields(record.response.usage);
  // A parsed SSE event as readJsonEvents yields it.
  if (record.data !== undefined && record.usage === undefined) return openaiUsage(record.data);
  return fromFields(record.usage);
}
