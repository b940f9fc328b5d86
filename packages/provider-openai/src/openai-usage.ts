import type { Usage } from '@ctxkit/core';

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

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

function fromFields(usage: OpenAIUsageFields | null | undefined): Usage | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  // Chat Completions says prompt/completion, Responses says input/output; cached tokens are part of the input in both.
  const inputTokens = count(usage.prompt_tokens) ?? count(usage.input_tokens);
  if (inputTokens === undefined) return undefined;
  const cachedInputTokens =
    count(usage.prompt_tokens_details?.cached_tokens) ?? count(usage.input_tokens_details?.cached_tokens) ?? count(usage.prompt_cache_hit_tokens);
  const outputTokens = count(usage.completion_tokens) ?? count(usage.output_tokens);
  return {
    inputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
  };
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
  if (Array.isArray(response)) {
    for (let index = response.length - 1; index >= 0; index--) {
      const usage = openaiUsage(response[index]);
      if (usage) return usage;
    }
    return undefined;
  }
  if (!response || typeof response !== 'object') return undefined;
  const record = response as { type?: unknown; response?: { usage?: OpenAIUsageFields }; usage?: OpenAIUsageFields; data?: unknown };
  if (typeof record.type === 'string' && record.type.startsWith('response.') && record.response) return fromFields(record.response.usage);
  // A parsed SSE event as readJsonEvents yields it.
  if (record.data !== undefined && record.usage === undefined) return openaiUsage(record.data);
  return fromFields(record.usage);
}
