// @ctxkit/provider-utils README: what an error means, a window cache over a discovery on 127.0.0.1, a
// fallback chain that switches on a rate limit.
import { memoryStore } from '@ctxkit/core';
import { classifyError, createWindowCache, requestJson, withFallback } from '@ctxkit/provider-utils';
import { assert, done, serve } from './_support.mjs';

const overflow = classifyError({ status: 400, body: '{"error":{"message":"prompt is too long: 208310 tokens > 200000 maximum"}}' });
assert.deepEqual([overflow.kind, overflow.reportedTokens, overflow.limitTokens, overflow.fallback], ['context_overflow', 208_310, 200_000, false]);
const tpm = classifyError({ status: 413, body: 'Request too large ... on tokens per minute (TPM): Limit 12000, Requested 14137' });
assert.deepEqual([tpm.kind, tpm.fallback, tpm.retryable], ['rate_limit', true, false]);

const server = await serve({ 'GET /props': [200, { n_ctx: 40_960 }] });
try {
  const windows = createWindowCache({
    provider: 'my-server',
    store: memoryStore(),
    discover: async (model, { signal }) => {
      const props = await requestJson(`${server.url}/props?model=${model}`, { provider: 'my-server', signal, timeoutMs: 5_000 });
      return { contextWindow: props.n_ctx };
    },
  });
  assert.deepEqual(await windows.resolve('qwen3-8b'), { contextWindow: 40_960, source: 'discovered' });
} finally {
  await server.close();
}

const provider = (id) => ({ specificationVersion: 'v1', kind: 'provider', id, contextWindow: async () => ({ contextWindow: 128_000, source: 'default' }), classifyError });
const switches = [];
const chain = withFallback(
  [
    { provider: provider('first'), model: 'a' },
    { provider: provider('second'), model: 'b' },
  ],
  {
    onSwitch: ({ from, to, classification }) => switches.push(`${from.model} → ${to.model} (${classification?.kind})`),
  },
);
const { result, target } = await chain.run(async ({ model }) => {
  if (model === 'a') throw Object.assign(new Error('429'), { status: 429, body: '{"error":{"message":"Rate limit reached"}}' });
  return 'answer from b';
});
assert.equal(result, 'answer from b');
assert.equal(target.model, 'b');
assert.deepEqual(switches, ['a → b (rate_limit)']);
done('overflow 208310 > 200000, TPM 413 → rate_limit, window 40960 discovered, fallback a → b on 429');
