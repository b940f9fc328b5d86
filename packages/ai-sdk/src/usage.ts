import type { LanguageModelV4Usage } from '@ai-sdk/provider';
import type { Usage } from '@ctxkit/core';
import type { LanguageModelUsage } from 'ai';

/**
 * ctxkit's `Usage` from a LanguageModelV4 result's usage, or undefined when the provider reported no input
 * tokens (then there is nothing to anchor on, and the manager keeps estimating).
 */
export function usageFromLanguageModel(usage: LanguageModelV4Usage | undefined): Usage | undefined {
  const inputTokens = usage?.inputTokens?.total;
  if (typeof inputTokens !== 'number' || !Number.isFinite(inputTokens) || inputTokens < 0) return undefined;
  const cached = usage?.inputTokens.cacheRead;
  const output = usage?.outputTokens?.total;
  return { inputTokens, ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}), ...(typeof output === 'number' ? { outputTokens: output } : {}) };
}

/** ctxkit's `Usage` from a step's `LanguageModelUsage` (what `generateText` reports per step), or undefined without input tokens. */
export function usageFromStep(usage: LanguageModelUsage | undefined): Usage | undefined {
  const inputTokens = usage?.inputTokens;
  if (typeof inputTokens !== 'number' || !Number.isFinite(inputTokens) || inputTokens < 0) return undefined;
  const cached = usage?.inputTokenDetails?.cacheReadTokens;
  const output = usage?.outputTokens;
  return { inputTokens, ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}), ...(typeof output === 'number' ? { outputTokens: output } : {}) };
}
