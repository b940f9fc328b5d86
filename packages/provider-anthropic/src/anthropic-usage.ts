import type { Usage } from '@ctxkit/core';

interface AnthropicUsageFields {
  input_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
  output_tokens?: unknown;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

interface UsageParts {
  input?: { inputTokens: number; cachedInputTokens?: number };
  outputTokens?: number;
}

function read(fields: AnthropicUsageFields | null | undefined, into: UsageParts): void {
  if (!fields || typeof fields !== 'object') return;
  const input = count(fields.input_tokens);
  if (input !== undefined) {
    // Anthropic reports cache writes and reads apart from input_tokens; the request held all three.
    const written = count(fields.cache_creation_input_tokens) ?? 0;
    const cacheRead = count(fields.cache_read_input_tokens);
    into.input = { inputTokens: input + written + (cacheRead ?? 0), ...(cacheRead === undefined ? {} : { cachedInputTokens: cacheRead }) };
  }
  const output = count(fields.output_tokens);
  if (output !== undefined) into.outputTokens = output;
}

function collect(item: unknown, into: UsageParts): void {
  if (!item || typeof item !== 'object') return;
  const record = item as { type?: unknown; message?: { usage?: AnthropicUsageFields }; usage?: AnthropicUsageFields; data?: unknown };
  if (record.type === 'message_start') read(record.message?.usage, into);
  else if (record.usage !== undefined) read(record.usage, into);
  else if (record.data !== undefined) collect(record.data, into);
}

/**
 * The input tokens Anthropic counted: `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`,
 * with the cache reads also reported apart. Reads a Messages response, a `message_start` event, a
 * `message_delta` that carries input counts, or a list of stream events (input from `message_start`,
 * output from the last `message_delta`). Undefined when no input count is present.
 * @example anthropicUsage({ usage: { input_tokens: 2095, cache_creation_input_tokens: 2051, cache_read_input_tokens: 14238, output_tokens: 503 } })
 * // { inputTokens: 18_384, cachedInputTokens: 14_238, outputTokens: 503 }
 */
export function anthropicUsage(response: unknown): Usage | undefined {
  const found: UsageParts = {};
  if (Array.isArray(response)) for (const item of response) collect(item, found);
  else collect(response, found);
  if (!found.input) return undefined;
  return { ...found.input, ...(found.outputTokens === undefined ? {} : { outputTokens: found.outputTokens }) };
}
