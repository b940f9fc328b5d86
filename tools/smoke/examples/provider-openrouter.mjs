// @ctxkit/provider-openrouter README: the window of the top provider (a models list on 127.0.0.1), and a
// shorter upstream window learned from a wrapped 502.
import { openrouterProvider } from '@ctxkit/provider-openrouter';
import { assert, done, fixtureJson, fixtureText, serve, temporaryFolder } from './_support.mjs';
import { fileStore } from '@ctxkit/store';

const server = await serve({ 'GET /api/v1/models': [200, fixtureJson('provider-openrouter', 'models.json')] });
try {
  const openrouter = openrouterProvider({ apiKey: 'or-smoke', baseURL: `${server.url}/api/v1`, store: fileStore(temporaryFolder()), appName: 'my-agent' });
  assert.deepEqual(await openrouter.contextWindow('anthropic/claude-sonnet-4'), { contextWindow: 200_000, maxOutputTokens: 64_000, source: 'discovered' });
  const wrapped = { status: 502, body: fixtureText('provider-openrouter', 'error-502-wrapped.json') };
  await openrouter.learnFromError('qwen/qwen3-coder', wrapped);
  const learned = await openrouter.contextWindow('qwen/qwen3-coder');
  assert.equal(learned.source, 'learned');
  assert.ok(learned.contextWindow < 262_144);
  done(`claude-sonnet-4 200000 (top provider), qwen3-coder learned ${learned.contextWindow}`);
} finally {
  await server.close();
}
