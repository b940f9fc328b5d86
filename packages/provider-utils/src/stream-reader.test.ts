import { closeTestServers, sendStream, startTestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from './http.ts';
import { readJsonEvents, readJsonLines, readServerSentEvents } from './stream-reader.ts';

afterEach(closeTestServers);

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function serve(chunks: string[], contentType?: string) {
  const server = await startTestServer((_request, response) => sendStream(response, chunks, contentType ? { contentType } : {}));
  return request(`${server.url}/stream`, { provider: 'test', body: {} });
}

describe('readServerSentEvents', () => {
  it('parses events split across chunks, CRLF endings, comments, names and multi-line data', async () => {
    const open = await serve([': keep-alive\r\n', 'event: message_start\r\ndata: {"a"', ':1}\r\n\r', '\ndata: line one\ndata: line two\n\n', 'data: last without a blank line']);
    expect(await collect(readServerSentEvents(open.body))).toEqual([{ event: 'message_start', data: '{"a":1}' }, { data: 'line one\nline two' }, { data: 'last without a blank line' }]);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: é\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 7));
        controller.enqueue(bytes.slice(7));
        controller.close();
      },
    });
    expect(await collect(readServerSentEvents(stream))).toEqual([{ data: 'é' }]);
  });
});

describe('readJsonEvents', () => {
  it('yields JSON payloads and stops at [DONE]', async () => {
    const open = await serve(['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: [DONE]\n\n', 'data: {"n":3}\n\n']);
    expect((await collect(readJsonEvents(open.body, { provider: 'test' }))).map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('names the chunk that is not JSON', async () => {
    const open = await serve(['data: {"n":1}\n\n', 'data: {"n":\n\n']);
    await expect(collect(readJsonEvents(open.body, { provider: 'openai' }))).rejects.toThrow(
      expect.objectContaining({ failure: 'malformed', message: '[ctxkit:openai] stream chunk 1 is not JSON: {"n":' }),
    );
  });
});

describe('readJsonLines', () => {
  it('reads newline-delimited JSON, skipping blank lines', async () => {
    const open = await serve(['{"done":false}\n\n{"do', 'ne":true,"prompt_eval_count":26}\n'], 'application/x-ndjson');
    expect(await collect(readJsonLines(open.body, { provider: 'ollama' }))).toEqual([{ done: false }, { done: true, prompt_eval_count: 26 }]);
  });
});
