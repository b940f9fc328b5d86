// @ctxkit/core README: validate a transcript, segment turns, a typed registry, CtxkitError.isInstance.
import { assertValidTranscript, CtxkitError, createRegistry, memoryStore, segmentTurns } from '@ctxkit/core';
import { assert, done } from './_support.mjs';

const messages = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the failing test in src/app.ts' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/app.ts"}' }] },
  { role: 'tool', toolCallId: 'c1', content: 'export const x = 1;' },
];
assertValidTranscript(messages);
assert.deepEqual(segmentTurns(messages), [{ start: 1, end: 4 }]);

const registry = createRegistry([memoryStore()]);
const store = registry.store('memory');
await store.setItem('k', { a: 1 });
assert.deepEqual(await store.getItem('k'), { a: 1 });

assert.throws(
  () => assertValidTranscript([{ role: 'tool', toolCallId: 'zz', content: 'orphan' }]),
  (error) => CtxkitError.isInstance(error, 'INVALID_TRANSCRIPT') && error.message.includes('[ctxkit:core]'),
);
done('transcript valid, turns [1,4), registry store round-trips, INVALID_TRANSCRIPT thrown');
