// @ctxkit/tier-webllm README: without WebGPU the tier skips at once; with an engine (here the package's
// stand-in, no GPU needed) it folds the middle of the run into an on-device summary.
import { memoryStore } from '@ctxkit/core';
import { webllmTier } from '@ctxkit/tier-webllm';
import { createEngineDouble } from '@ctxkit/tier-webllm/test';
import { assert, done, tierContext } from './_support.mjs';

const messages = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make parseConfig in src/parser.ts accept null.' },
  ...Array.from({ length: 12 }, (_, round) => [
    { role: 'assistant', content: `Reading module ${round}.`, toolCalls: [{ id: `c${round}`, name: 'read_file', arguments: `{"path":"src/module${round}.ts"}` }] },
    { role: 'tool', toolCallId: `c${round}`, content: 'export function parseConfig(text: string | null) { return JSON.parse(text!).settings; }\n'.repeat(25) },
  ]).flat(),
  { role: 'user', content: 'Also add a test.' },
];
const count = (list) => list.reduce((sum, message) => sum + 4 + Math.ceil(JSON.stringify(message).length / 4), 0);
const context = tierContext(messages, { protectedStart: messages.length - 1, targetTokens: 2_000, count, store: memoryStore() });
// No usable WebGPU adapter here (Node and Bun have no navigator.gpu; Deno has one but no GPU on CI).
const skipped = await webllmTier().apply(messages, context);
assert.equal(skipped.status, 'skipped');
assert.match(skipped.reason, /^on-device model unavailable/);
const outcome = await webllmTier({ engine: createEngineDouble() }).apply(messages, context);
assert.equal(outcome.status, 'applied', outcome.reason);
assert.equal(outcome.detail, 'folded 24 messages (7,334 tokens) into a 173-token on-device summary in 5 calls (4 chunks)');
assert.deepEqual(outcome.messages.at(-1), messages.at(-1));
done(`no WebGPU: skipped; engine stand-in: ${outcome.detail}`);
