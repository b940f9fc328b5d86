import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CtxkitError } from '@ctxkit/core';

/** A request the test server received, recorded before the handler ran. */
export interface RecordedRequest {
  method: string;
  /** The path without the query: `/v1/models`. */
  path: string;
  /** The whole URL, query included (`url.searchParams.get('model')`). */
  url: URL;
  headers: IncomingHttpHeaders;
  /** The body as received, `''` when there was none. */
  body: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: unknown;
}

/** Answers one request; it may write nothing at all (a server that hangs). */
export type TestServerHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/** A JSON answer given as data: `[status, body]` or `[status, body, headers]`; a string body is sent as it is. */
export type JsonAnswer = readonly [status: number, body: unknown, headers?: Readonly<Record<string, string>>];

/** Routes of {@link routes}: `'/path'` for any method or `'POST /path'`, to a handler or a JSON answer. */
export type TestRoutes = Readonly<Record<string, TestServerHandler | JsonAnswer>>;

/** A real HTTP server on 127.0.0.1 for one test, started by {@link startTestServer}. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Every request so far, in the order they arrived. */
  readonly requests: readonly RecordedRequest[];
  /** The requests to one path (query left out). */
  requestsTo(path: string): RecordedRequest[];
  /** Replaces the handler: the server's state changed (a model loaded, a restart with other settings). */
  handle(handler: TestServerHandler | TestRoutes): void;
  /** Stops listening and drops open connections (hung requests included); later connections are refused. */
  close(): Promise<void>;
}

// Servers not closed yet, so a test file can close all of them after each test in one line.
const open = new Set<TestServer>();

/** The body as received, or `JSON.stringify` of a value. */
const bodyText = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body));

/**
 * Sends a JSON answer. A string is sent as it is, so a test can send a recorded body byte for byte, or
 * JSON cut short (`'{"choices":['`) to play a malformed answer.
 */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(bodyText(body));
}

/** Options for {@link sendStream}. */
export interface SendStreamOptions {
  /** @default 200 */
  status?: number;
  /** @default 'text/event-stream' */
  contentType?: string;
}

/**
 * Sends a body in pieces, each written and flushed on its own with a pause between them, as a server
 * generating tokens does: server-sent events, JSON lines, or a JSON error sent in chunks.
 * @example
 * ```ts
 * await sendStream(response, recorded.split(/(?<=\n\n)/));                                // SSE
 * await sendStream(response, lines, { contentType: 'application/x-ndjson' });             // Ollama
 * ```
 */
export async function sendStream(response: ServerResponse, chunks: readonly string[], options: SendStreamOptions = {}): Promise<void> {
  response.writeHead(options.status ?? 200, { 'content-type': options.contentType ?? 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of chunks) {
    response.write(chunk);
    // A timer rather than setImmediate: the client then reads the pieces apart, as it would from a model.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  response.end();
}

/**
 * A handler that routes by path: `'/v1/models'` for any method, `'POST /v1/chat/completions'` for one;
 * a route is a handler or a JSON answer `[status, body, headers?]`. A request no route takes gets
 * `fallback`, by default a 404 whose body names the method and path.
 * @throws CtxkitError INVALID_ARGUMENT for a key that is not `'/path'` or `'METHOD /path'`
 * @example
 * ```ts
 * const server = await startTestServer(routes({ '/v1/models': [200, models], 'POST /v1/chat/completions': (request, response) => sendJson(response, 200, completion) }));
 * ```
 */
export function routes(table: TestRoutes, fallback?: TestServerHandler | JsonAnswer): TestServerHandler {
  for (const key of Object.keys(table)) {
    if (!/^(?:[A-Z]+ )?\//.test(key)) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'testkit', message: `route ${JSON.stringify(key)} must be '/path' or 'METHOD /path'` });
    }
  }
  const reply = (route: TestServerHandler | JsonAnswer, request: RecordedRequest, response: ServerResponse) =>
    typeof route === 'function' ? route(request, response) : sendJson(response, route[0], route[1], route[2]);
  // The default 404 says what was asked, so a test calling the wrong path fails with a readable body.
  const otherwise: TestServerHandler | JsonAnswer = fallback ?? ((request, response) => sendJson(response, 404, { error: `no route for ${request.method} ${request.path}` }));
  return (request, response) => reply(table[`${request.method} ${request.path}`] ?? table[request.path] ?? otherwise, request, response);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Starts a real HTTP server (node:http) on 127.0.0.1 and a free port, for provider tests: it records
 * every request and answers through `handler` (or a route table). A handler that writes nothing plays a
 * hung server; one that throws answers 500 with the error's text. Not a mocked fetch: the code under
 * test goes through sockets, timeouts and streams as against the real service.
 * @throws CtxkitError INVALID_ARGUMENT for a malformed route key
 * @example
 * ```ts
 * afterEach(closeTestServers);
 * const server = await startTestServer((request, response) => sendJson(response, 200, { data: [] }));
 * await fetch(`${server.url}/v1/models`);
 * server.requestsTo('/v1/models'); // [{ method: 'GET', path: '/v1/models', ... }]
 * ```
 */
export async function startTestServer(handler: TestServerHandler | TestRoutes): Promise<TestServer> {
  const toHandler = (given: TestServerHandler | TestRoutes): TestServerHandler => (typeof given === 'function' ? given : routes(given));
  let current = toHandler(handler);
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const request: RecordedRequest = { method: incoming.method ?? 'GET', path: url.pathname, url, headers: incoming.headers, body, json: parseJson(body) };
      requests.push(request);
      Promise.resolve()
        .then(() => current(request, response))
        .catch((error: unknown) => {
          if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const testServer: TestServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path) => requests.filter((request) => request.path === path),
    handle(next) {
      current = toHandler(next);
    },
    close() {
      open.delete(testServer);
      closing ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closing;
    },
  };
  open.add(testServer);
  return testServer;
}

/** Closes every test server of this test file still open: `afterEach(closeTestServers)`. */
export async function closeTestServers(): Promise<void> {
  await Promise.all([...open].map((server) => server.close()));
}

/** A URL on 127.0.0.1 where nothing listens (a server was there and closed): connecting is refused. */
export async function refusedURL(): Promise<string> {
  const server = await startTestServer(() => undefined);
  await server.close();
  return server.url;
}

/** Reads recorded bodies from a test's `__fixtures__` folder. */
export interface FixtureReader {
  /** The file as text, byte for byte. */
  text(name: string): string;
  /** The file parsed as JSON. */
  json<T = unknown>(name: string): T;
}

/**
 * Reads recorded response bodies from the `__fixtures__` folder beside a test file.
 * @throws CtxkitError NOT_FOUND naming the file when it is missing
 * @example
 * ```ts
 * const fixtures = fixtureReader(import.meta.url);
 * sendJson(response, 400, fixtures.text('error-context-length.json'));
 * ```
 */
export function fixtureReader(testFileUrl: string): FixtureReader {
  const folder = new URL('__fixtures__/', testFileUrl);
  const text = (name: string): string => {
    const file = new URL(name, folder);
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new CtxkitError({ code: 'NOT_FOUND', source: 'testkit', message: `no fixture at ${file.pathname}`, cause: error });
    }
  };
  return { text, json: <T>(name: string) => JSON.parse(text(name)) as T };
}
