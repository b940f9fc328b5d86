import { closeTestServers, refusedURL, sendJson, sendStream, startTestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.ts';
import { request, requestJson, requestOptionalJson } from './http.ts';
import { ProviderCallError } from './provider-call-error.ts';
import { readJsonEvents } from './stream-reader.ts';

afterEach(closeTestServers);

async function failure(promise: Promise<unknown>): Promise<ProviderCallError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ProviderCallError.isInstance(error)) throw new Error(`expected a ProviderCallError, got ${String(error)}`);
  return error;
}

describe('requestJson', () => {
  it('sends JSON and returns the parsed answer', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, { data: [{ id: 'm' }] }));
    const answer = await requestJson<{ data: { id: string }[] }>(`${server.url}/v1/models`, { provider: 'test', body: { a: 1 }, headers: { authorization: 'Bearer k', skipped: undefined } });
    expect(answer.data[0]?.id).toBe('m');
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/models', json: { a: 1 } });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k');
    expect(server.requests[0]?.headers).not.toHaveProperty('skipped');
  });

  it('turns an HTTP error into a typed error with status, body and headers, classified by its body', async () => {
    const body = '{"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29937, Requested 385. Please try again in 644ms.","code":"rate_limit_exceeded"}}';
    const server = await startTestServer((_request, response) => sendJson(response, 429, body, { 'retry-after-ms': '700' }));
    const error = await failure(requestJson(`${server.url}/v1/chat/completions`, { provider: 'openai', body: {} }));
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', failure: 'http', status: 429, body, provider: 'openai', retryable: true });
    expect(error.message).toMatch(/^\[ctxkit:openai\] http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered 429: /);
    expect(classifyError(error)).toMatchObject({ kind: 'rate_limit', retryAfterMs: 700, fallback: true, retryable: true, status: 429 });
  });

  it('reports connection refused as offline, naming the URL', async () => {
    const url = await refusedURL();
    const error = await failure(requestJson(`${url}/v1/models`, { provider: 'vllm' }));
    expect(error).toMatchObject({ failure: 'offline', code: 'PROVIDER_ERROR' });
    expect(error.message).toContain(`cannot reach ${url}/v1/models: ECONNREFUSED`);
    expect(classifyError(error)).toMatchObject({ kind: 'offline', fallback: true });
  });

  it('gives up on a server that never answers, with code TIMEOUT', async () => {
    const server = await startTestServer(() => undefined);
    const error = await failure(requestJson(`${server.url}/slow`, { provider: 'test', timeoutMs: 150 }));
    expect(error).toMatchObject({ failure: 'timeout', code: 'TIMEOUT' });
    expect(error.message).toContain('did not answer within 150 ms');
    expect(classifyError(error)).toMatchObject({ kind: 'timeout', fallback: true });
  });

  it('times out a body that stops half way', async () => {
    const server = await startTestServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data": [');
    });
    const error = await failure(requestJson(`${server.url}/`, { provider: 'test', timeoutMs: 150 }));
    expect(error.failure).toBe('timeout');
  });

  it('rejects a 200 whose body is not JSON, quoting it', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, '<html>502 Bad Gateway</html>'));
    const error = await failure(requestJson(`${server.url}/`, { provider: 'test' }));
    expect(error).toMatchObject({ failure: 'malformed', status: 200, body: '<html>502 Bad Gateway</html>' });
    expect(error.message).toContain('body that is not JSON: <html>502 Bad Gateway</html>');
    expect(classifyError(error)).toMatchObject({ kind: 'other', fallback: true });
  });

  it('refuses a body over maxBodyBytes without reading it all, and cuts an error body to it', async () => {
    // 64 KiB of padding with no content-length, sent in 1 KiB writes: the limit must stop the read itself
    const server = await startTestServer(async (request, response) => {
      response.writeHead(request.path === '/error' ? 500 : 200, { 'content-type': 'application/json' });
      response.write('{"pad":"');
      for (let index = 0; index < 64 && !response.destroyed; index++) response.write(' '.repeat(1024));
      response.end('"}');
    });
    const error = await failure(requestJson(`${server.url}/models`, { provider: 'vllm', maxBodyBytes: 4_096 }));
    expect(error.failure).toBe('malformed');
    expect(error.message).toBe(`[ctxkit:vllm] ${server.url}/models answered 200 with a body over 4096 bytes (maxBodyBytes); not read`);
    const cut = await failure(requestJson(`${server.url}/error`, { provider: 'vllm', maxBodyBytes: 4_096 }));
    expect(cut).toMatchObject({ failure: 'http', status: 500 });
    expect(cut.body).toHaveLength(4_096);
    expect(await requestJson(`${server.url}/models`, { provider: 'vllm' })).toMatchObject({ pad: expect.any(String) });
    await expect(requestJson(`${server.url}/models`, { provider: 'vllm', maxBodyBytes: 0 })).rejects.toThrow('maxBodyBytes must be a whole number above zero, got 0');
  });

  it('stops at once when the caller aborts, with code ABORTED and no fallback', async () => {
    const server = await startTestServer(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await failure(requestJson(`${server.url}/`, { provider: 'test', signal: controller.signal, timeoutMs: 10_000 }));
    expect(error).toMatchObject({ failure: 'aborted', code: 'ABORTED' });
    expect(classifyError(error)).toMatchObject({ kind: 'other', fallback: false });
  });
});

describe('requestOptionalJson', () => {
  it('answers undefined where the server has nothing at the URL, and throws everything else', async () => {
    const server = await startTestServer({
      '/models/known': [200, { max_input_tokens: 200_000 }],
      '/models/missing': [404, { error: { message: 'model not found' } }],
      '/no-list': [405, 'Method Not Allowed'],
      '/down': [503, { error: { message: 'overloaded' } }],
    });
    expect(await requestOptionalJson(`${server.url}/models/known`, { provider: 'test' })).toEqual({ max_input_tokens: 200_000 });
    expect(await requestOptionalJson(`${server.url}/models/missing`, { provider: 'test' })).toBeUndefined();
    expect(await requestOptionalJson(`${server.url}/no-list`, { provider: 'test', missing: [404, 405] })).toBeUndefined();
    expect((await failure(requestOptionalJson(`${server.url}/no-list`, { provider: 'test' }))).status).toBe(405);
    expect((await failure(requestOptionalJson(`${server.url}/down`, { provider: 'test' }))).status).toBe(503);
    expect((await failure(requestOptionalJson(`${await refusedURL()}/models/x`, { provider: 'test' }))).failure).toBe('offline');
  });
});

describe('request (streams)', () => {
  it('streams a body and times out a stream that stalls', async () => {
    const server = await startTestServer(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"n":1}\n\n');
      // then nothing: a stalled stream
    });
    const open = await request(`${server.url}/`, { provider: 'test', body: {}, timeoutMs: 200 });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const event of readJsonEvents(open.body, { provider: 'test' })) seen.push(event.data);
    })().then(
      () => expect.unreachable('the call resolved; it must reject'),
      (caught: unknown) => caught,
    );
    expect(seen).toEqual([{ n: 1 }]);
    expect(ProviderCallError.isInstance(error) && error.failure).toBe('timeout');
  });

  it('reports HTTP errors before the stream starts', async () => {
    const server = await startTestServer((_request, response) => sendStream(response, ['{"error":{"message":"The model is overloaded."}}'], { status: 503, contentType: 'application/json' }));
    const error = await failure(request(`${server.url}/`, { provider: 'gemini', body: {} }));
    expect(classifyError(error)).toMatchObject({ kind: 'rate_limit', status: 503 });
  });
});
