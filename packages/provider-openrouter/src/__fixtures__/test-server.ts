// A real HTTP server on 127.0.0.1 for tests (port 0), recording what it was sent. Not a mocked fetch.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (incoming, response) => {
    let text = '';
    for await (const chunk of incoming) text += chunk;
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    const recorded = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: incoming.headers, body };
    requests.push(recorded);
    await handler(recorded, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens: a server was there and closed, so connections are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.url;
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Sends a text body in pieces, each flushed on its own, as a streaming server does. */
export async function sendChunks(response: ServerResponse, status: number, chunks: readonly string[], contentType = 'text/event-stream'): Promise<void> {
  response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-cache' });
  for (const chunk of chunks) {
    response.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  response.end();
}
