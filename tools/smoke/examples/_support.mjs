// Helpers the smoke examples share: recorded fixtures, a small HTTP server on 127.0.0.1, a result line.
// Only node: built-ins that Node, Bun and Deno all provide.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

export { assert };

/**
 * The small coding session the summarizing examples fold: the task, one read of src/parser.ts that
 * answered `fileText`, then the messages `after` it.
 */
export const parserSession = (fileText, after) => [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make parseConfig in src/parser.ts accept null.' },
  { role: 'assistant', content: 'Reading the parser.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/parser.ts"}' }] },
  { role: 'tool', toolCallId: 'c1', content: fileText },
  ...after,
];

/** A recorded fixture of a package (copied from packages/<folder>/src/__fixtures__ by the runner). */
export const fixtureText = (folder, file) => readFileSync(join(import.meta.dirname, 'fixtures', folder, file), 'utf8');
export const fixtureJson = (folder, file) => JSON.parse(fixtureText(folder, file));

/** A new empty folder for a file store, inside the smoke folder (removed with it). */
export const temporaryFolder = () => mkdtempSync(join(import.meta.dirname, 'store-'));

/**
 * An HTTP server on 127.0.0.1 answering `routes['METHOD /path']` (a function of the parsed JSON body, or a
 * value) with `[status, body]`; anything else is a 404. Resolves to `{ url, requests, close }`.
 */
export async function serve(routes) {
  const requests = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      const path = request.url.split('?')[0];
      requests.push({ method: request.method, path, headers: request.headers, body: text });
      const route = routes[`${request.method} ${path}`];
      const [status, body] = route === undefined ? [404, { error: 'not found' }] : typeof route === 'function' ? route(text ? JSON.parse(text) : undefined) : route;
      const isText = typeof body === 'string';
      response.writeHead(status, { 'content-type': isText ? 'text/plain' : 'application/json' });
      response.end(isText ? body : JSON.stringify(body));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  // Deno's node:http waits for idle keep-alive connections on close (90 s here); Node closes them itself.
  const close = () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections?.();
    });
  return { url: `http://127.0.0.1:${port}`, requests, close };
}

/** The line the runner prints after PASS. */
export function done(summary) {
  console.log(summary);
}

/**
 * A tier context as the engine hands one to a tier, for the tier examples: the transcript's tokens and
 * the floor measured once with `overrides.count`, a text counter (characters ÷ 4), a signal that never
 * aborts, no progress output. `overrides` (at least `protectedStart`, `targetTokens`, `count`, `store`) win.
 */
export function tierContext(messages, overrides) {
  const { count } = overrides;
  return { countText: (text) => Math.ceil(text.length / 4), signal: new AbortController().signal, progress: () => {}, currentTokens: count(messages), floorTokens: count([]), ...overrides };
}
