// @ctxkit/tier-trim README: the middle of a run folded into a model-free factual note.
import { memoryStore } from '@ctxkit/core';
import { trimTier } from '@ctxkit/tier-trim';
import { assert, done, tierContext } from './_support.mjs';

const messages = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make parseConfig in src/parser.ts accept null.' },
  { role: 'assistant', content: 'Running the tests first.', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"npx vitest run src/parser.test.ts"}' }] },
  { role: 'tool', toolCallId: 'c1', content: `<returncode>1</returncode>\n${'  ✓ passes\n'.repeat(50)}TypeError: Cannot read properties of null` },
  { role: 'assistant', content: 'I will guard against null, then rerun the tests.', toolCalls: [{ id: 'c2', name: 'write_file', arguments: '{"path":"src/parser.ts","content":"…"}' }] },
  { role: 'tool', toolCallId: 'c2', content: 'ok' },
  { role: 'user', content: 'Also add a test.' },
];
const count = (list) => list.reduce((sum, message) => sum + 4 + Math.ceil(JSON.stringify(message.content).length / 4), 0);
const outcome = await trimTier().apply(messages, tierContext(messages, { protectedStart: 6, targetTokens: 2_000, count, store: memoryStore() }));
assert.equal(outcome.status, 'applied', outcome.reason);
// Trim folds only the oldest rounds, just down to the target: the test run becomes the note, the fix after it
// stays verbatim.
assert.equal(outcome.detail, 'folded 2 messages (183 tokens) into a 118-token factual note');
const note = outcome.messages[2].content;
assert.match(note, /`npx vitest run src\/parser\.test\.ts` → exit 1/);
assert.match(note, /TypeError: Cannot read properties of null/);
assert.deepEqual(outcome.messages.slice(3), messages.slice(4));
done(outcome.detail);
