// @ctxkit/provider-openai README: windows from the catalog, usage of a recorded completion, an overflow
// that teaches the window, and the tier-0 summarizer against a server on 127.0.0.1.
import { openaiProvider } from '@ctxkit/provider-openai';
import { assert, done, fixtureJson, serve } from './_support.mjs';

const server = await serve({ 'POST /v1/chat/completions': [200, fixtureJson('provider-openai', 'chat-completion.json')] });
try {
  const openai = openaiProvider({ apiKey: 'sk-smoke', baseURL: `${server.url}/v1` });
  assert.deepEqual(await openai.contextWindow('gpt-4o-2024-08-06'), { contextWindow: 128_000, maxOutputTokens: 16_384, source: 'catalog' });
  assert.deepEqual(await openai.contextWindow('ft:my-private-model'), { contextWindow: 32_768, source: 'default' });
  const usage = openai.usage(fixtureJson('provider-openai', 'chat-completion.json'));
  assert.equal(typeof usage.inputTokens, 'number');
  const overflow = { status: 400, body: JSON.stringify(fixtureJson('provider-openai', 'error-context-length.json')) };
  assert.deepEqual((({ kind, limitTokens, reportedTokens, fallback }) => ({ kind, limitTokens, reportedTokens, fallback }))(openai.classifyError(overflow)), {
    kind: 'context_overflow',
    limitTokens: 128_000,
    reportedTokens: 131_072,
    fallback: false,
  });
  const summary = await openai.summarizer('gpt-4o', { timeoutMs: 10_000 }).summarize({ instructions: 'Summarize.', messages: [{ role: 'user', content: 'Fix the date parser test.' }] });
  assert.match(summary, /^## Task\nFix the failing date parser test/);
  assert.equal(server.requests[0].headers.authorization, 'Bearer sk-smoke');
  done(`gpt-4o 128000 (catalog), usage ${usage.inputTokens} in, overflow 131072 > 128000, summary ${summary.length} chars`);
} finally {
  await server.close();
}
