import type { Usage } from '@ctxkit/core';
import { lastUsage, tokenCount, usageFrom } from '@ctxkit/provider-utils';

interface UsageMetadata {
  promptTokenCount?: unknown;
  cachedContentTokenCount?: unknown;
  candidatesTokenCount?: unknown;
  thoughtsTokenCount?: unknown;
}

function fromMetadata(metadata: UsageMetadata | undefined): Usage | undefined {
  if (!metadata || typeof metadata !== 'object') return undefined;
  const inputTokens = tokenCount(metadata.promptTokenCount);
  if (inputTokens === undefined) return undefined;
  const cachedInputTokens = tokenCount(metadata.cachedContentTokenCount);
  // Thinking tokens are output the model wrote (and was billed for), though not shown.
  const candidates = tokenCount(metadata.candidatesTokenCount);
  const thoughts = tokenCount(metadata.thoughtsTokenCount);
  const outputTokens = candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0);
  return usageFrom(inputTokens, cachedInputTokens, outputTokens);
}

/**
 * The input tokens Gemini counted: `usageMetadata.promptTokenCount` (cached content included, and
 * `cachedContentTokenCount` reported apart), from a generateContent response, a stream chunk, or a list
 * of chunks (the last with usage wins: every chunk repeats the prompt count, the last adds the output).
 * @example geminiUsage({ usageMetadata: { promptTokenCount: 10458, cachedContentTokenCount: 8192, candidatesTokenCount: 38 } })
 * // { inputTokens: 10_458, cachedInputTokens: 8_192, outputTokens: 38 }
 */
export function geminiUsage(response: unknown): Usage | undefined {
  if (Array.isArray(response)) return lastUsage(response, geminiUsage);
  if (!response || typeof response !== 'object') return undefined;
  const record = response as { usageMetadata?: UsageMetadata; data?: unknown; response?: unknown };
  if (record.usageMetadata) return fromMetadata(record.usageMetadata);
  // A parsed SSE event, or a Vertex-style wrapper.
  if (record.data !== undefined) return geminiUsage(record.data);
  if (record.response !== undefined) return geminiUsage(record.response);
  return undefined;
}
