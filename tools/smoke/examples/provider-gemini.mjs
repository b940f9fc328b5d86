// @ctxkit/provider-gemini README: a window from the models endpoint (a server on 127.0.0.1), usage, a quota error.
import { geminiProvider } from '@ctxkit/provider-gemini';
import { assert, done, fixtureJson, fixtureText, serve } from './_support.mjs';

const server = await serve({ 'GET /v1beta/models/gemini-2.5-flash': [200, fixtureJson('provider-gemini', 'model.json')] });
try {
  const gemini = geminiProvider({ apiKey: 'g-smoke', baseURL: `${server.url}/v1beta` });
  assert.deepEqual(await gemini.contextWindow('gemini-2.5-flash'), { contextWindow: 1_048_576, maxOutputTokens: 65_536, source: 'discovered' });
  assert.deepEqual(gemini.usage(fixtureJson('provider-gemini', 'generate-content.json')), { inputTokens: 10_458, cachedInputTokens: 8_192, outputTokens: 38 });
  const quota = gemini.classifyError({ status: 429, body: fixtureText('provider-gemini', 'error-resource-exhausted.json') });
  assert.deepEqual([quota.kind, quota.retryAfterMs, quota.retryable, quota.fallback], ['rate_limit', 16_000, true, true]);
  done('gemini-2.5-flash 1048576 (discovered), usage 10458 in, 429 → rate_limit retry after 16000 ms');
} finally {
  await server.close();
}
