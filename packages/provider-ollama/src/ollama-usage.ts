import type { Usage } from '@ctxkit/core';
import { lastUsage, tokenCount, usageCandidates } from '@ctxkit/provider-utils';

/** The usage fields of an Ollama `/api/chat` or `/api/generate` answer (the body, or the final `done: true` line of a stream). */
export interface OllamaFinalChunk {
  done?: boolean;
  /** Prompt tokens evaluated for this request; tokens reused from the prompt cache are not counted. */
  prompt_eval_count?: number;
  eval_count?: number;
}

function fromObject(value: unknown): Usage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as OllamaFinalChunk & { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null };
  const native = tokenCount(record.prompt_eval_count);
  if (native !== undefined) {
    const output = tokenCount(record.eval_count);
    return { inputTokens: native, ...(output === undefined ? {} : { outputTokens: output }), inputIsLowerBound: true };
  }
  // Ollama's OpenAI-compatible endpoints report the same count as prompt_tokens.
  const compatible = tokenCount(record.usage?.prompt_tokens);
  if (compatible !== undefined) {
    const output = tokenCount(record.usage?.completion_tokens);
    return { inputTokens: compatible, ...(output === undefined ? {} : { outputTokens: output }), inputIsLowerBound: true };
  }
  return undefined;
}

/**
 * The input tokens Ollama counted for one response: `prompt_eval_count` of the body or of the final
 * `done: true` line of a stream (pass that line, all the lines, or the NDJSON text), or `prompt_tokens`
 * of the OpenAI-compatible endpoints. Always a lower bound (`inputIsLowerBound: true`): Ollama does
 * not count prompt tokens it reused from its cache. Undefined when the response carries no count
 * (a stream cut before its last line, or a prompt served entirely from the cache).
 * @example
 * ```ts
 * ollamaUsage({ done: true, prompt_eval_count: 26, eval_count: 282 });
 * // { inputTokens: 26, outputTokens: 282, inputIsLowerBound: true }
 * ```
 */
export function ollamaUsage(response: unknown): Usage | undefined {
  return lastUsage(usageCandidates(response), fromObject);
}
