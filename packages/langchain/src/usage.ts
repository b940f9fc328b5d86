import type { Usage } from '@ctxkit/core';
import type { BaseMessage } from '@langchain/core/messages';

/**
 * ctxkit's `Usage` from an AIMessage's `usage_metadata` (what LangChain chat models report), or undefined
 * when it has no input tokens.
 */
export function usageFromMessage(message: BaseMessage | undefined): Usage | undefined {
  const metadata = (message as { usage_metadata?: { input_tokens?: unknown; output_tokens?: unknown; input_token_details?: { cache_read?: unknown } } } | undefined)?.usage_metadata;
  const inputTokens = metadata?.input_tokens;
  if (typeof inputTokens !== 'number' || !Number.isFinite(inputTokens) || inputTokens < 0) return undefined;
  const cached = metadata?.input_token_details?.cache_read;
  const output = metadata?.output_tokens;
  return { inputTokens, ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}), ...(typeof output === 'number' ? { outputTokens: output } : {}) };
}
