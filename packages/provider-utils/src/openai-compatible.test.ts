import { describe, expect, it } from 'vitest';
import { openaiCompatibleUsage } from './openai-compatible.ts';

const chunk = (fields: Record<string, unknown>) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1764517501, model: 'local', ...fields });
const chunks = [
  chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'The' }, finish_reason: null }] }),
  chunk({ choices: [{ index: 0, delta: { content: ' tests pass.' }, finish_reason: 'stop' }] }),
  chunk({ choices: [], usage: { prompt_tokens: 1830, completion_tokens: 96, total_tokens: 1926, prompt_tokens_details: { cached_tokens: 1536 } } }),
];
const streamText = `${chunks.map((value) => `data: ${JSON.stringify(value)}\n\n`).join('')}data: [DONE]\n\n`;

describe('openaiCompatibleUsage', () => {
  it('reads prompt_tokens of a completion, cached tokens included and reported apart', () => {
    expect(openaiCompatibleUsage({ choices: [], usage: { prompt_tokens: 2412, completion_tokens: 58, total_tokens: 2470 } })).toEqual({ inputTokens: 2412, outputTokens: 58 });
    expect(openaiCompatibleUsage({ usage: { prompt_tokens: 1830, completion_tokens: 96, prompt_tokens_details: { cached_tokens: 1536 } } })).toEqual({
      inputTokens: 1830,
      cachedInputTokens: 1536,
      outputTokens: 96,
    });
  });

  it('reads the usage chunk of a stream, given the chunk, the chunks or the SSE text', () => {
    const expected = { inputTokens: 1830, cachedInputTokens: 1536, outputTokens: 96 };
    expect(openaiCompatibleUsage(chunks.at(-1))).toEqual(expected);
    expect(openaiCompatibleUsage(chunks)).toEqual(expected);
    expect(openaiCompatibleUsage(streamText)).toEqual(expected);
  });

  it('finds nothing in a stream without its usage chunk (include_usage off, or cut short)', () => {
    expect(openaiCompatibleUsage(chunks.slice(0, -1))).toBeUndefined();
    expect(openaiCompatibleUsage({ usage: null, choices: [] })).toBeUndefined();
    expect(openaiCompatibleUsage('data: {"choices":[{"delta":{"content":"x"}}]}\n\ndata: {"usa')).toBeUndefined();
    expect(openaiCompatibleUsage(42)).toBeUndefined();
  });

  it('reads the Responses API usage and llama.cpp timings', () => {
    expect(openaiCompatibleUsage({ type: 'response.completed', response: { usage: { input_tokens: 900, output_tokens: 12, input_tokens_details: { cached_tokens: 512 } } } })).toEqual({
      inputTokens: 900,
      cachedInputTokens: 512,
      outputTokens: 12,
    });
    expect(openaiCompatibleUsage({ timings: { prompt_n: 1, cache_n: 236, predicted_n: 35 } })).toEqual({ inputTokens: 237, cachedInputTokens: 236, outputTokens: 35 });
  });
});
