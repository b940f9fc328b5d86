// The example of packages/store-redis/README.md, verbatim (fleet.test.ts checks that and runs it).
import type { Message } from '@ctxkit/core';
import { redisStore } from '@ctxkit/store-redis';
import { createRestoreHandler } from '@ctxkit/tier-microcompact';
import { createCtxkit } from 'ctxkit';

const store = redisStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', base: 'my-agents', ttlSeconds: 86_400 });
const conversationId = 'ticket-8812';

// Worker A prepares each request of the conversation.
const manager = createCtxkit({ model: 'gpt-4o', contextWindow: 16_000, maxOutputTokens: 2_000, store, conversationId, editedFiles: false });
const output = (step: number) => `// part ${step}\n${'export const retries = 3;\n'.repeat(150)}`;
const history: Message[] = [{ role: 'user', content: 'Find where the retry limit is set.' }];
for (let step = 0; step < 12; step++) {
  history.push({ role: 'assistant', content: '', toolCalls: [{ id: `call_${step}`, name: 'read_file', arguments: `{"path":"src/part${step}.ts"}` }] });
  history.push({ role: 'tool', toolCallId: `call_${step}`, content: output(step) });
}
const { messages } = await manager.prepare(history);
const stub = messages.find((message) => message.meta?.ctxkit?.kind === 'stub');
console.log(String(stub?.content).split('\n')[0]); // [tool result 1 archived: read_file src/part0.ts, 1,055 tokens; restore with restore_tool_result("r1")]

// Worker B, another process with the same store, answers the model's restore_tool_result call.
const restore = createRestoreHandler(store, { conversationId });
console.log((await restore({ handle: 'r1' })) === output(0)); // true

await store.close(); // or the open connection keeps the process alive
