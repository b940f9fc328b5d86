import { fixtureReader } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { ollamaUsage } from './ollama-usage.ts';

const { text: fixture, json: fixtureJson } = fixtureReader(import.meta.url);

const streamText = fixture('chat-stream.ndjson');
const chunks = streamText
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as unknown);

describe('ollamaUsage', () => {
  it('reads prompt_eval_count of a non-streamed answer, as a lower bound', () => {
    expect(ollamaUsage(fixtureJson('chat.json'))).toEqual({ inputTokens: 2412, outputTokens: 58, inputIsLowerBound: true });
  });

  it('reads the final done line of a stream, given the line, all the lines or the NDJSON text', () => {
    const expected = { inputTokens: 1830, outputTokens: 96, inputIsLowerBound: true };
    expect(ollamaUsage(chunks.at(-1))).toEqual(expected);
    expect(ollamaUsage(chunks)).toEqual(expected);
    expect(ollamaUsage(streamText)).toEqual(expected);
  });

  it('finds nothing in a stream cut before its last line, or in a fully cached prompt', () => {
    expect(ollamaUsage(chunks.slice(0, -1))).toBeUndefined();
    expect(ollamaUsage({ done: true, eval_count: 12 })).toBeUndefined();
    expect(ollamaUsage('garbage\n{"done":fals')).toBeUndefined();
    expect(ollamaUsage(undefined)).toBeUndefined();
  });

  it('reads prompt_tokens of the OpenAI-compatible endpoints, streamed with include_usage too', () => {
    expect(ollamaUsage({ usage: { prompt_tokens: 512, completion_tokens: 40, total_tokens: 552 } })).toEqual({ inputTokens: 512, outputTokens: 40, inputIsLowerBound: true });
    const sse = 'data: {"choices":[{"delta":{"content":"ok"}}]}\n\ndata: {"choices":[],"usage":{"prompt_tokens":77,"completion_tokens":3}}\n\ndata: [DONE]\n\n';
    expect(ollamaUsage(sse)).toEqual({ inputTokens: 77, outputTokens: 3, inputIsLowerBound: true });
  });
});
