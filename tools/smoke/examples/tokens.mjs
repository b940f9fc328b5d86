// @ctxkit/tokens README: a meter over tiktoken, one step, the provider's figure, the next measure.
import { createMeter, tiktokenCounter } from '@ctxkit/tokens';
import { assert, done } from './_support.mjs';

const tools = [{ name: 'bash', description: 'Run a shell command', parameters: { type: 'object' } }];
const messages = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the failing test in src/app.ts' },
];
const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
const step = await meter.exceeds(messages, 100_000, { tools, model: 'gpt-4o' });
assert.equal(step.exceeds, false);
meter.record({ inputTokens: 52, messageCount: messages.length, model: 'gpt-4o' });
messages.push({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' }] }, { role: 'tool', toolCallId: 'c1', content: 'FAIL src/app.test.ts' });
const measured = meter.measure(messages, { tools, model: 'gpt-4o' });
assert.deepEqual(
  { total: measured.total, floor: measured.floor, growing: measured.growing, source: measured.source, reportedTokens: measured.reportedTokens, unanchoredMessages: measured.unanchoredMessages },
  { total: 76, floor: 39, growing: 37, source: 'reported', reportedTokens: 52, unanchoredMessages: 2 },
);
done(`o200k_base: total ${measured.total}, floor ${measured.floor}, growing ${measured.growing} (reported 52)`);
