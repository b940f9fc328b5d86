// @ctxkit/provider-vllm README: max_model_len from /v1/models (127.0.0.1, with the API key), streamed
// usage, a max_tokens error.
import { vllmProvider } from '@ctxkit/provider-vllm';
import { assert, done, fixtureJson, fixtureText, serve } from './_support.mjs';

const model = 'Qwen/Qwen2.5-Coder-32B-Instruct';
const server = await serve({ 'GET /v1/models': [200, fixtureJson('provider-vllm', 'v1-models.json')] });
try {
  const vllm = vllmProvider({ apiKey: 'token-abc123', baseURL: `${server.url}/v1` });
  assert.deepEqual(await vllm.contextWindow(model), { contextWindow: 32_768, source: 'discovered' });
  assert.equal(server.requests[0].headers.authorization, 'Bearer token-abc123');
  const usage = vllm.usage(fixtureText('provider-vllm', 'chat-stream.sse'));
  assert.equal(typeof usage.inputTokens, 'number');
  const classified = vllm.classifyError({ status: 400, body: fixtureText('provider-vllm', 'error-max-tokens.json') }, { model });
  assert.equal(classified.kind, 'max_tokens');
  done(`${model} 32768 (discovered), usage ${usage.inputTokens} in, ${classified.kind}: asked ${classified.reportedTokens}, limit ${classified.limitTokens}`);
} finally {
  await server.close();
}
