// @ctxkit/tier-summary README: tier 0 with an OpenAI-compatible summarizer, here a server on 127.0.0.1.
import { memoryStore } from '@ctxkit/core';
import { summarySections, summaryTier } from '@ctxkit/tier-summary';
import { assert, done, parserSession, serve, tierContext } from './_support.mjs';

const answer = summarySections.map((section) => `## ${section}\n${section === 'Task' ? 'Make parseConfig in src/parser.ts accept null.' : '-'}`).join('\n');
const server = await serve({ 'POST /v1/chat/completions': () => [200, { choices: [{ message: { role: 'assistant', content: answer } }] }] });
const baseUrl = `${server.url}/v1`;
const summarizer = {
  specificationVersion: 'v1',
  kind: 'summarizer',
  id: 'openai-compatible',
  contextWindow: 32_768,
  async summarize({ messages, instructions, maxOutputTokens, signal }) {
    const response = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer none' },
      body: JSON.stringify({
        model: 'qwen2.5:7b',
        max_tokens: maxOutputTokens,
        messages: [{ role: 'system', content: instructions }, ...messages.map((message) => ({ role: message.role, content: message.content }))],
      }),
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    const body = await response.json();
    return body.choices[0]?.message.content ?? '';
  },
};
const messages = parserSession('export function parseConfig(text: string | null) {\n  return JSON.parse(text!).settings;\n}\n'.repeat(60), [{ role: 'user', content: 'Also add a test.' }]);
try {
  const count = (list) => list.reduce((sum, message) => sum + 4 + Math.ceil(JSON.stringify(message).length / 4), 0);
  const outcome = await summaryTier({ timeoutMs: 60_000, minSpanTokens: 0 }).apply(
    messages,
    tierContext(messages, { protectedStart: 4, targetTokens: 2_000, count, store: memoryStore(), summarizer }),
  );
  assert.equal(outcome.status, 'applied', outcome.reason);
  assert.match(outcome.messages[2].content, /^\[ctxkit summary of 2 earlier messages/);
  assert.match(outcome.messages[2].content, /## Task\nMake parseConfig/);
  assert.deepEqual(outcome.messages.at(-1), messages.at(-1));
  assert.equal(server.requests.length, 1);
  done(outcome.detail);
} finally {
  await server.close();
}
