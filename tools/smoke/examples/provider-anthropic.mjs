// @ctxkit/provider-anthropic README: a window from the Models API (a server on 127.0.0.1), usage with
// cache reads and writes, an overflow error.
import { anthropicProvider } from '@ctxkit/provider-anthropic';
import { assert, done, fixtureJson, fixtureText, serve } from './_support.mjs';

const model = fixtureJson('provider-anthropic', 'model.json');
const server = await serve({ 'GET /v1/models/claude-sonnet-4-20250514': [200, model] });
try {
  const anthropic = anthropicProvider({ apiKey: 'sk-ant-smoke', baseURL: `${server.url}/v1` });
  assert.deepEqual(await anthropic.contextWindow('claude-sonnet-4-20250514'), { contextWindow: 200_000, maxOutputTokens: 64_000, source: 'discovered' });
  assert.equal(server.requests[0].headers['x-api-key'], 'sk-ant-smoke');
  assert.deepEqual(anthropic.usage(fixtureJson('provider-anthropic', 'message.json')), { inputTokens: 2_095 + 2_051 + 14_238, cachedInputTokens: 14_238, outputTokens: 503 });
  const error = { status: 400, body: fixtureText('provider-anthropic', 'error-prompt-too-long.json'), model: 'claude-sonnet-4-5' };
  const classified = anthropic.classifyError(error);
  assert.deepEqual([classified.kind, classified.reportedTokens, classified.limitTokens], ['context_overflow', 208_310, 200_000]);
  done('claude-sonnet-4 200000 (discovered), usage 18384 in (14238 cached), overflow 208310 > 200000');
} finally {
  await server.close();
}
