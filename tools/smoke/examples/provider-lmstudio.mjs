// @ctxkit/provider-lmstudio README: the loaded context (/api/v0/models on 127.0.0.1), streamed usage, an overflow.
import { lmstudioProvider } from '@ctxkit/provider-lmstudio';
import { assert, done, fixtureJson, fixtureText, serve } from './_support.mjs';

const server = await serve({ 'GET /api/v0/models': [200, fixtureJson('provider-lmstudio', 'api-v0-models.json')] });
try {
  const lmstudio = lmstudioProvider({ baseURL: server.url, unloadedContextLength: 8192 });
  assert.deepEqual(await lmstudio.contextWindow('qwen3-8b'), { contextWindow: 16_384, source: 'discovered' });
  const usage = lmstudio.usage(fixtureText('provider-lmstudio', 'chat-stream.sse'));
  assert.equal(typeof usage.inputTokens, 'number');
  const overflow = {
    status: 400,
    body: '{"error":"Trying to keep the first 5321 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough."}',
  };
  const classified = lmstudio.classifyError(overflow, { model: 'qwen3-8b' });
  assert.deepEqual([classified.kind, classified.reportedTokens, classified.limitTokens], ['context_overflow', 5321, 4096]);
  done(`qwen3-8b loaded with 16384 (discovered), usage ${usage.inputTokens} in, overflow 5321 > 4096`);
} finally {
  await server.close();
}
