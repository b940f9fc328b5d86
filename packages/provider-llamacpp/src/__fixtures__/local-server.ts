// A real HTTP server on 127.0.0.1 for the tests, answering as the model server does. Same file in the
// four local-provider packages.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** Requests to one path. */
  requestsTo(path: string): RecordedRequest[];
  /** Replaces the handler (the server's state changed: a model loaded, a crash). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1, on a free port. */
export async function startServer(handler: Handler): Promise<LocalServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const request: RecordedRequest = { method: incoming.method ?? 'GET', path: url.pathname, url, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      Promise.resolve(current(request, response)).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path) => requests.filter((request) => request.path === path),
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL where nothing listens: connecting is refused. */
export async function refusedURL(): Promise<string> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.url;
}

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(text);
}

/** Writes a stream chunk by chunk, each in its own write, as a server generating tokens does. */
export async function sendStream(response: ServerResponse, chunks: readonly string[], contentType: string): Promise<void> {
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
  for (const chunk of chunks) {
    response.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

/** A recorded response body from this folder. */
export function fixture(name: string): string {
  return readFileSync(new URL(name, import.meta.url), 'utf8');
}

/** A recorded JSON response body from this folder, parsed. */
export function fixtureJson<T = unknown>(name: string): T {
  return JSON.parse(fixture(name)) as T;
}
