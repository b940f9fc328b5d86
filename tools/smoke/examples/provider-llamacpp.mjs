// @ctxkit/provider-llamacpp README: a slot's n_ctx from /props (127.0.0.1), streamed usage, an overflow.
import { llamacppProvider } from '@ctxkit/provider-llamacpp';
import { assert, done, fixtureJson, fixtureText, serve } from './_support.mjs';

const model = '../models/Qwen3-8B-Q4_K_M.gguf';
const server = await serve({
  'GET /v1/models': [200, fixtureJson('provider-llamacpp', 'v1-models-single.json')],
  'GET /props': [200, fixtureJson('provider-llamacpp', 'props-single.json')],
});
try {
  const llamacpp = llamacppProvider({ baseURL: server.url });
  assert.deepEqual(await llamacpp.contextWindow(model), { contextWindow: 8192, source: 'discovered' });
  assert.deepEqual(llamacpp.usage(fixtureJson('provider-llamacpp', 'chat-completion.json')), { inputTokens: 2412, cachedInputTokens: 2301, outputTokens: 58 });
  const usage = llamacpp.usage(fixtureText('provider-llamacpp', 'chat-stream.sse'));
  assert.equal(typeof usage.inputTokens, 'number');
  const overflow = { status: 400, body: fixtureText('provider-llamacpp', 'error-exceed-context.json') };
  const classified = llamacpp.classifyError(overflow, { model });
  assert.deepEqual([classified.kind, classified.reportedTokens, classified.limitTokens], ['context_overflow', 14_429, 8192]);
  done(`n_ctx 8192 (discovered), usage 2412 in (2301 cached), overflow 14429 > 8192`);
} finally {
  await server.close();
}
