// @ctxkit/engine README: a manager with microcompaction, trim and tiktoken over a long run in an 8K window;
// prepare compacts below the threshold, keeps the task and the recent turns, and recover answers an overflow.
import { classifyError } from '@ctxkit/provider-utils';
import { createContextManager, editedFilesSource, taskSource } from '@ctxkit/engine';
import { microcompactTier } from '@ctxkit/tier-microcompact';
import { trimTier } from '@ctxkit/tier-trim';
import { tiktokenCounter } from '@ctxkit/tokens';
import { assert, done } from './_support.mjs';

const events = [];
const manager = createContextManager({
  model: 'small-model',
  contextWindow: (model) => ({ 'small-model': 8_192 })[model],
  maxOutputTokens: 1_024,
  plugins: [microcompactTier(), trimTier(), tiktokenCounter('o200k_base'), taskSource(), editedFilesSource()],
  onEvent: (event) => event.type === 'compaction-end' && events.push(event),
});
const history = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make parseConfig in src/parser.ts accept null.' },
];
for (let round = 0; round < 12; round++) {
  const id = `c${round}`;
  history.push({ role: 'assistant', content: `Reading module ${round}.`, toolCalls: [{ id, name: 'read_file', arguments: JSON.stringify({ path: `src/module${round}.ts` }) }] });
  history.push({ role: 'tool', toolCallId: id, toolName: 'read_file', content: `export const value${round} = ${round};\n`.repeat(120) });
}
history.push({ role: 'user', content: 'Now run the tests.' });

const { messages, report } = await manager.prepare(history);
assert.equal(report.decision, 'compacted');
assert.ok(report.after < report.threshold, `after ${report.after} should be under the threshold ${report.threshold}`);
assert.ok(events.length === 1);
assert.deepEqual(messages[0], history[0]);
assert.ok(messages.some((message) => typeof message.content === 'string' && message.content.includes('Make parseConfig in src/parser.ts accept null.')));
assert.deepEqual(messages.at(-1), history.at(-1));

const overflow = classifyError({ status: 400, body: '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."}}' });
const recovered = await manager.recover(history, overflow, { model: 'small-model' });
assert.ok(['retry', 'lower-output'].includes(recovered.action), recovered.reason);
done(`8K window: ${report.measurement.total} → ${report.after} tokens (threshold ${report.threshold}); recover: ${recovered.action}`);
