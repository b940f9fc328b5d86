import { CtxkitError, type Message } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { createApiSummarizer, renderTranscript } from './api-summarizer.ts';

const messages: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Fix the bug' },
      { type: 'image', mediaType: 'image/png', data: 'AAAA' },
    ],
  },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' }] },
  { role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: 'export const a = 1;' },
];

describe('renderTranscript', () => {
  it('renders every message as data, with tool calls, tool names and image placeholders', () => {
    expect(renderTranscript(messages)).toBe(
      [
        '<transcript>',
        '[1] system:\nYou are a coding agent.',
        '',
        '[2] user:\nFix the bug\n[image image/png]',
        '',
        '[3] assistant:\ntool call read_file (call_1): {"path":"a.ts"}',
        '',
        '[4] tool (read_file for call_1):\nexport const a = 1;',
        '</transcript>',
      ].join('\n'),
    );
  });
});

describe('createApiSummarizer', () => {
  it('sends the instructions as the system prompt and the messages as data', async () => {
    const seen: unknown[] = [];
    const summarizer = createApiSummarizer({
      id: 'test:model',
      provider: 'test',
      contextWindow: 128_000,
      complete: async (request) => {
        seen.push(request);
        return '  ## Task\nFix the bug  ';
      },
    });
    expect(summarizer).toMatchObject({ kind: 'summarizer', id: 'test:model', contextWindow: 128_000, specificationVersion: 'v1' });
    expect(await summarizer.summarize({ messages, instructions: 'Summarize.', maxOutputTokens: 500 })).toBe('## Task\nFix the bug');
    expect(seen[0]).toMatchObject({ system: 'Summarize.', prompt: renderTranscript(messages), maxOutputTokens: 500 });
  });

  it('reads a window that becomes known later', () => {
    let known: number | undefined;
    const summarizer = createApiSummarizer({ id: 'x', provider: 'test', contextWindow: () => known, complete: async () => 'ok' });
    expect(summarizer.contextWindow).toBeUndefined();
    known = 40_960;
    expect(summarizer.contextWindow).toBe(40_960);
  });

  it('times out a completion that ignores its signal', async () => {
    const summarizer = createApiSummarizer({ id: 'slow', provider: 'test', timeoutMs: 30, complete: () => new Promise(() => undefined) });
    await expect(summarizer.summarize({ messages, instructions: 'x' })).rejects.toThrow(expect.objectContaining({ code: 'TIMEOUT', message: '[ctxkit:test] slow: summary took longer than 30 ms' }));
  });

  it('aborts with the request signal and passes it on to the call', async () => {
    const controller = new AbortController();
    let callSignal: AbortSignal | undefined;
    const summarizer = createApiSummarizer({
      id: 'x',
      provider: 'test',
      complete: ({ signal }) => {
        callSignal = signal;
        return new Promise(() => undefined);
      },
    });
    setTimeout(() => controller.abort(), 5);
    const error = await summarizer.summarize({ messages, instructions: 'x', signal: controller.signal }).then(
      () => expect.unreachable('the call resolved; it must reject'),
      (caught: unknown) => caught,
    );
    expect(CtxkitError.isInstance(error, 'ABORTED')).toBe(true);
    expect(callSignal?.aborted).toBe(true);
  });

  it('treats an empty answer as an error, not as a summary', async () => {
    const summarizer = createApiSummarizer({ id: 'x', provider: 'test', complete: async () => '  ' });
    await expect(summarizer.summarize({ messages, instructions: 'x' })).rejects.toThrow('[ctxkit:test] x returned an empty summary');
  });
});
