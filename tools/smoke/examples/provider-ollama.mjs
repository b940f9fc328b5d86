// @ctxkit/provider-ollama README: the window of the loaded model (/api/ps, /api/show on 127.0.0.1), the
// usage of a streamed chat, an offline server.
import { ollamaProvider } from '@ctxkit/provider-ollama';
import { assert, done, fixtureJson, fixtureText, serve } from './_support.mjs';

const server = await serve({
  'GET /api/ps': [200, fixtureJson('provider-ollama', 'api-ps-qwen3-loaded.json')],
  'POST /api/show': [200, fixtureJson('provider-ollama', 'api-show-qwen3.json')],
});
try {
  const ollama = ollamaProvider({ baseURL: server.url });
  assert.deepEqual(await ollama.contextWindow('qwen3:8b'), { contextWindow: 16_384, source: 'discovered' });
  const lines = fixtureText('provider-ollama', 'chat-stream.ndjson')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const usage = ollama.usage(lines);
  assert.equal(usage.inputIsLowerBound, true);
  const offline = await fetch('http://127.0.0.1:1/api/chat', { method: 'POST', body: '{}' }).then(
    () => undefined,
    (error) => error,
  );
  assert.ok(offline, 'a request to port 1 should fail');
  assert.deepEqual((({ kind, fallback }) => ({ kind, fallback }))(ollama.classifyError(offline, { model: 'qwen3:8b' })), { kind: 'offline', fallback: true });
  done(`qwen3:8b loaded with 16384 (discovered), usage ${usage.inputTokens} in (a lower bound), port 1 → offline`);
} finally {
  await server.close();
}
