// @ctxkit/store-redis README: two workers of a fleet share a real redis-server on 127.0.0.1 (started by
// @ctxkit/testkit); worker A's prepare archives old tool results of conversation ticket-8812 there, and
// worker B, on its own connection, restores r1 byte for byte. Another conversation sees none of it.
import { redisStore } from '@ctxkit/store-redis';
import { startRedisServer } from '@ctxkit/testkit';
import { createRestoreHandler } from '@ctxkit/tier-microcompact';
import { createCtxkit } from 'ctxkit';
import { assert, done } from './_support.mjs';

const server = await startRedisServer();
const store = redisStore({ url: server.url, base: 'my-agents', ttlSeconds: 86_400 });
const other = redisStore({ url: server.url, base: 'my-agents' });
try {
  const conversationId = 'ticket-8812';

  // Worker A prepares each request of the conversation.
  const manager = createCtxkit({ model: 'gpt-4o', contextWindow: 16_000, maxOutputTokens: 2_000, store, conversationId, editedFiles: false });
  const output = (step) => `// part ${step}\n${'export const retries = 3;\n'.repeat(150)}`;
  const history = [{ role: 'user', content: 'Find where the retry limit is set.' }];
  for (let step = 0; step < 12; step++) {
    history.push({ role: 'assistant', content: '', toolCalls: [{ id: `call_${step}`, name: 'read_file', arguments: `{"path":"src/part${step}.ts"}` }] });
    history.push({ role: 'tool', toolCallId: `call_${step}`, content: output(step) });
  }
  const { messages, report } = await manager.prepare(history);
  const stubs = messages.filter((message) => message.meta?.ctxkit?.kind === 'stub');
  const firstLine = String(stubs[0]?.content).split('\n')[0];
  assert.equal(firstLine, '[tool result 1 archived: read_file src/part0.ts, 1,055 tokens; restore with restore_tool_result("r1")]');

  // Worker B, on another connection to the same server, answers the model's restore_tool_result call.
  const restore = createRestoreHandler(other, { conversationId });
  assert.equal(await restore({ handle: 'r1' }), output(0));
  assert.match(await createRestoreHandler(other, { conversationId: 'ticket-9000' })({ handle: 'r1' }), /^No archived tool result "r1"/);
  const keys = (await store.client.keys('*')).filter((key) => key.includes('conversations:ticket-8812:r')).length;
  assert.equal(keys, stubs.length);
  done(`${report.measurement.total} → ${report.after} tokens; ${stubs.length} stubs archived in Redis under ticket-8812; r1 restored by another connection (${output(0).length} chars)`);
} finally {
  await store.close();
  await other.close();
  await server.close();
}
