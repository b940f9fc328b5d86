// @ctxkit/tier-microcompact README: four large file reads, two archived as stubs, restored byte for byte.
import { memoryStore } from '@ctxkit/core';
import { createRestoreHandler, microcompactTier, restoreToolResultTool, toOpenAITool } from '@ctxkit/tier-microcompact';
import { assert, done, tierContext } from './_support.mjs';

const store = memoryStore();
const tools = [
  toOpenAITool({ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }),
  toOpenAITool(restoreToolResultTool, { strict: true }),
];
assert.equal(tools[1].function.name, 'restore_tool_result');
const restore = createRestoreHandler(store);
async function runTool(call) {
  if (call.name === restoreToolResultTool.name) return restore(call.arguments);
  const { path } = JSON.parse(call.arguments);
  return `// ${path}\n${'export const line = 1;\n'.repeat(2_000)}`;
}
const messages = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Find where the port is configured.' },
];
for (const [index, path] of ['src/app.ts', 'src/server.ts', 'src/config.ts', 'src/env.ts'].entries()) {
  const call = { id: `call_${index}`, name: 'read_file', arguments: JSON.stringify({ path }) };
  messages.push({ role: 'assistant', content: '', toolCalls: [call] });
  messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: await runTool(call) });
}
messages.push({ role: 'assistant', content: 'The port comes from src/env.ts.' });
const countText = (text) => Math.ceil(text.length / 4);
const count = (list) => list.reduce((sum, message) => sum + countText(JSON.stringify(message)), 0);
const context = tierContext(messages, { protectedStart: messages.length - 1, targetTokens: 8_000, count, countText, store });
const outcome = await microcompactTier({ keepRecent: 2 }).apply(messages, context);
assert.equal(outcome.status, 'applied', outcome.reason);
assert.equal(outcome.detail, 'archived 2 tool results as stubs (2 new: r1–r2), freed 23,861 tokens');
// The stub's first line, then head, tail and mentions digests of the original.
assert.equal(outcome.messages[3].content.split('\n')[0], '[tool result 1 archived: read_file src/app.ts, 11,504 tokens; restore with restore_tool_result("r1")]');
assert.match(outcome.messages[3].content, /\nhead: /);
const restored = await runTool({ id: 'call_9', name: 'restore_tool_result', arguments: '{"handle":"r1"}' });
assert.equal(restored, messages[3].content);
assert.match(await restore({ handle: 'r42' }), /^No archived tool result "r42"/);
done(`${outcome.detail}; r1 restored byte for byte`);
