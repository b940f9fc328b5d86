import { afterEach, describe, expect, it } from 'vitest';
import { closeTestServers, fixtureReader, refusedURL, routes, sendJson, sendStream, startTestServer } from './test-server.ts';

afterEach(closeTestServers);

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error(`expected the call to fail, got ${String(error)}`);
  return error;
}

const causeCode = (error: Error) => (error.cause as { code?: string } | undefined)?.code;

describe('startTestServer', () => {
  it('listens on 127.0.0.1 and records each request: method, path apart from the query, headers, text and JSON body', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 201, { ok: true }, { 'x-request-id': 'r1' }));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await fetch(`${server.url}/props?model=a%2Fb&autoload=false`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"model":"qwen3"}' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-request-id')).toBe('r1');
    expect(await answer.json()).toEqual({ ok: true });
    const [recorded] = server.requests;
    expect(recorded).toMatchObject({ method: 'POST', path: '/props', body: '{"model":"qwen3"}', json: { model: 'qwen3' } });
    expect(recorded?.url.searchParams.get('model')).toBe('a/b');
    expect(recorded?.headers.authorization).toBe('Bearer k');
    expect(server.requestsTo('/props')).toHaveLength(1);
    expect(server.requestsTo('/other')).toEqual([]);
  });

  it('keeps a body that is not JSON as text, with no JSON', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, {}));
    await fetch(server.url, { method: 'POST', body: 'not json' });
    await fetch(server.url);
    expect(server.requests.map((request) => [request.body, request.json])).toEqual([
      ['not json', undefined],
      ['', undefined],
    ]);
  });

  it('sends a string body byte for byte, so a test can play JSON cut short', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, '{"choices":['));
    const answer = await fetch(server.url);
    expect(await answer.text()).toBe('{"choices":[');
  });

  it('answers 500 with the error text when the handler throws', async () => {
    const server = await startTestServer(() => {
      throw new Error('state broken');
    });
    const answer = await fetch(server.url);
    expect(answer.status).toBe(500);
    expect(await answer.text()).toBe('Error: state broken');
  });

  it('takes a new handler mid-test, as a server whose state changed', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, { n_ctx: 4096 }));
    expect(await (await fetch(server.url)).json()).toEqual({ n_ctx: 4096 });
    server.handle((_request, response) => sendJson(response, 503, { error: 'Loading model' }));
    expect((await fetch(server.url)).status).toBe(503);
    server.handle({ '/': [200, { n_ctx: 8192 }] });
    expect(await (await fetch(server.url)).json()).toEqual({ n_ctx: 8192 });
  });

  it('hangs when the handler writes nothing, and close() drops the hung connection', async () => {
    const server = await startTestServer(() => undefined);
    const hung = await failure(fetch(server.url, { signal: AbortSignal.timeout(100) }));
    expect(hung.name).toBe('TimeoutError');
    const pending = failure(fetch(server.url));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await server.close();
    expect((await pending).message).toBe('fetch failed');
    expect(causeCode(await failure(fetch(server.url)))).toBe('ECONNREFUSED');
  });

  it('closes every open server with closeTestServers, and a second close is harmless', async () => {
    const first = await startTestServer(() => undefined);
    const second = await startTestServer(() => undefined);
    await closeTestServers();
    await first.close();
    for (const server of [first, second]) expect(causeCode(await failure(fetch(server.url)))).toBe('ECONNREFUSED');
  });
});

describe('refusedURL', () => {
  it('is a 127.0.0.1 URL where connections are refused', async () => {
    const url = await refusedURL();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(causeCode(await failure(fetch(`${url}/v1/models`)))).toBe('ECONNREFUSED');
  });
});

describe('sendStream', () => {
  it('streams the chunks in order, as server-sent events by default', async () => {
    const events = ['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: [DONE]\n\n'];
    const server = await startTestServer((_request, response) => sendStream(response, events));
    const answer = await fetch(server.url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(await answer.text()).toBe(events.join(''));
  });

  it('takes another status and content type (a JSON error sent in pieces, JSON lines)', async () => {
    const server = await startTestServer((request, response) =>
      request.path === '/busy'
        ? sendStream(response, ['{"error":', '"busy"}'], { status: 503, contentType: 'application/json' })
        : sendStream(response, ['{"done":false}\n', '{"done":true}\n'], { contentType: 'application/x-ndjson' }),
    );
    const busy = await fetch(`${server.url}/busy`);
    expect([busy.status, busy.headers.get('content-type'), await busy.json()]).toEqual([503, 'application/json', { error: 'busy' }]);
    const lines = await fetch(`${server.url}/chat`);
    expect([lines.headers.get('content-type'), await lines.text()]).toEqual(['application/x-ndjson', '{"done":false}\n{"done":true}\n']);
  });
});

describe('routes', () => {
  it('routes by method and path, by path alone, and answers a 404 naming what no route took', async () => {
    const server = await startTestServer({
      'GET /v1/models': [200, { data: [] }],
      'POST /v1/models': [405, 'method not allowed', { allow: 'GET' }],
      '/props': (_request, response) => sendJson(response, 200, { n_ctx: 4096 }),
    });
    expect(await (await fetch(`${server.url}/v1/models`)).json()).toEqual({ data: [] });
    const posted = await fetch(`${server.url}/v1/models`, { method: 'POST', body: '{}' });
    expect([posted.status, posted.headers.get('allow'), await posted.text()]).toEqual([405, 'GET', 'method not allowed']);
    expect(await (await fetch(`${server.url}/props?model=x`, { method: 'POST' })).json()).toEqual({ n_ctx: 4096 });
    const missing = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST' });
    expect([missing.status, await missing.json()]).toEqual([404, { error: 'no route for POST /v1/chat/completions' }]);
  });

  it('uses the fallback given for anything else', async () => {
    const server = await startTestServer(routes({ '/v1/models': [200, {}] }, [500, '{}']));
    const other = await fetch(`${server.url}/anything`);
    expect([other.status, await other.text()]).toEqual([500, '{}']);
  });

  it('refuses a route key that is not a path', () => {
    expect(() => routes({ 'v1/models': [200, {}] })).toThrow("[ctxkit:testkit] route \"v1/models\" must be '/path' or 'METHOD /path'");
  });
});

describe('fixtureReader', () => {
  it('reads recorded bodies from the __fixtures__ folder beside the test, as text and as JSON', () => {
    const fixtures = fixtureReader(import.meta.url);
    expect(fixtures.text('models.json')).toBe('{ "object": "list", "data": [{ "id": "qwen3-8b", "max_model_len": 32768 }] }\n');
    expect(fixtures.json<{ data: { max_model_len: number }[] }>('models.json').data[0]?.max_model_len).toBe(32_768);
  });

  it('names a missing fixture', () => {
    expect(() => fixtureReader(import.meta.url).text('nope.json')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', message: expect.stringMatching(/^\[ctxkit:testkit\] no fixture at .*\/src\/__fixtures__\/nope\.json$/) }),
    );
  });
});
