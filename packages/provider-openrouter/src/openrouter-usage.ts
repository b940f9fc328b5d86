import type { Usage } from '@ctxkit/core';
import { lastUsage, tokenCount, usageFrom } from '@ctxkit/provider-utils';

interface UsageFields {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
}

/**
 * The input tokens OpenRouter reports (`usage.prompt_tokens`, cached ones included and also reported
 * apart as `prompt_tokens_details.cached_tokens`), from a response, the final stream chunk, or a list
 * of chunks (the last with usage wins).
 */
export function openrouterUsage(response: unknown): Usage | undefined {
  if (Array.isArray(response)) return lastUsage(response, openrouterUsage);
  if (!response || typeof response !== 'object') return undefined;
  const record = response as { usage?: UsageFields | null; data?: unknown };
  if (record.usage === undefined && record.data !== undefined) return openrouterUsage(record.data);
  const usage = record.usage;
  if (!usage || typeof usage !== 'object') return undefined;
  const inputTokens = tokenCount(usage.prompt_tokens);
  if (inputTokens === undefined) return undefined;
  const cachedInputTokens = tokenCount(usage.prompt_tokens_details?.cached_tokens);
  const outputTokens = tokenCount(usage.completion_tokens);
  return usageFrom(inputTokens, cachedInputTokens, outputTokens);
}
