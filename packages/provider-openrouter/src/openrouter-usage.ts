import type { Usage } from '@ctxkit/core';

interface UsageFields {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/**
 * The input tokens OpenRouter reports (`usage.prompt_tokens`, cached ones included and also reported
 * apart as `prompt_tokens_details.cached_tokens`), from a response, the final stream chunk, or a list
 * of chunks (the last with usage wins).
 */
export function openrouterUsage(response: unknown): Usage | undefined {
  if (Array.isArray(response)) {
    for (let index = response.length - 1; index >= 0; index--) {
      const usage = openrouterUsage(response[index]);
      if (usage) return usage;
    }
    return undefined;
  }
  if (!response || typeof response !== 'object') return undefined;
  const record = response as { usage?: UsageFields | null; data?: unknown };
  if (record.usage === undefined && record.data !== undefined) return openrouterUsage(record.data);
  const usage = record.usage;
  if (!usage || typeof usage !== 'object') return undefined;
  const inputTokens = count(usage.prompt_tokens);
  if (inputTokens === undefined) return undefined;
  const cachedInputTokens = count(usage.prompt_tokens_details?.cached_tokens);
  const outputTokens = count(usage.completion_tokens);
  return {
    inputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
  };
}
