// @ctxkit/testkit README: the tier conformance suite (here its promise form, outside vitest) on a tier,
// seeded; and a test server on 127.0.0.1.
import { memoryStore } from '@ctxkit/core';
import { checkTierConformance, createTierContext, sendJson, startTestServer, closeTestServers } from '@ctxkit/testkit';
import { assert, done } from './_support.mjs';

// A tier that drops nothing: it must pass every invariant.
const keepAll = () => ({
  specificationVersion: 'v1',
  kind: 'tier',
  id: 'keep-all',
  category: 'structural',
  async apply() {
    return { status: 'skipped', reason: 'nothing to do' };
  },
});
const report = await checkTierConformance(keepAll, { runs: 25, seed: 17 });
assert.deepEqual(report, { runs: 25, applied: 0, skipped: 25, failed: 0 });

// A tier that loses the task must be rejected with the counterexample.
const loseTask = () => ({
  ...keepAll(),
  id: 'lose-task',
  async apply(messages, context) {
    return { status: 'applied', messages: messages.filter((message, index) => message.role !== 'user' || index >= context.protectedStart), detail: 'dropped' };
  },
});
await assert.rejects(checkTierConformance(loseTask, { runs: 25, seed: 17 }));

assert.equal(createTierContext({ protectedStart: 1 }).protectedStart, 1);
assert.equal(typeof memoryStore, 'function');
const server = await startTestServer((request, response) => sendJson(response, 200, { path: request.path }));
try {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.deepEqual(await (await fetch(`${server.url}/hello`)).json(), { path: '/hello' });
} finally {
  await closeTestServers();
}
done('conformance: keep-all passes 25 runs, lose-task rejected; test server answers on 127.0.0.1');
