import { describe, expect, it } from 'vitest';
import { fixture, fixtureJson } from './__fixtures__/local-server.ts';
import { openaiCompatibleUsage } from './openai-compatible.ts';

const streamText = fixture('chat-stream.sse');
const chunks = streamText
  .split('\n')
  .filter((line) => line.startsWith('data: {'))
  .map((line) => JSON.parse(line.slice(6)) as unknown);

describe('openaiCompatibleUsage', () => {
  it('reads prompt_tokens of a completion, with cached tokens apart', () => {
    expect(openaiCompatibleUsage(fixtureJson('chat-completion.json'))).toEqual({ inputTokens: 2412, outputTokens: 58 });
    expect(openaiCompatibleUsage({ usage: { prompt_tokens: 1830, completion_tokens: 96, prompt_tokens_details: { cached_tokens: 1536 } } })).toEqual({
      inputTokens: 1830,
      cachedInputTokens: 1536,
      outputTokens: 96,
    });
  });

  it('reads the usage chunk of a stream, given the chunk, the chunks or the SSE text', () => {
    const expected = { inputTokens: 1830, outputTokens: 96 };
    expect(openaiCompatibleUsage(chunks.at(-1))).toEqual(expected);
    expect(openaiCompatibleUsage(chunks)).toEqual(expected);
    expect(openaiCompatibleUsage(streamText)).toEqual(expected);
  });

  it('finds nothing in a stream without its usage chunk (include_usage off, or cut short)', () => {
    expect(openaiCompatibleUsage(chunks.slice(0, -1))).toBeUndefined();
    expect(openaiCompatibleUsage({ usage: null, choices: [] })).toBeUndefined();
    expect(openaiCompatibleUsage('data: {"choices":[{"delta":{"content":"x"}}]}\n\ndata: {"usa')).toBeUndefined();
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
