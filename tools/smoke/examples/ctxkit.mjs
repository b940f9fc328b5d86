// ctxkit README: the default preset prepares a short history; the demo replays the synthetic 171-step
// session under ctxkit's policy in a 32K window. The runner checks the figures are the same on every runtime.
import { createCtxkit, demoSession, simulateRun } from 'ctxkit';
import { assert, done } from './_support.mjs';

const manager = createCtxkit({ model: 'gpt-4o', contextWindow: 128_000, maxOutputTokens: 16_384 });
const history = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the failing test in src/app.ts' },
];
const { messages, report } = await manager.prepare(history);
assert.deepEqual([report.decision, report.measurement.total, report.threshold], ['under-threshold', 28, 64_000]);
assert.deepEqual(messages, history);

const demo = await simulateRun(demoSession(), { window: 32_000, maxOutputTokens: 4_096, policy: 'ctxkit' });
assert.equal(demo.steps, 171);
assert.equal(demo.overflows, 0);
assert.ok(demo.peakInputTokens <= 32_000 - 4_096);
done(
  `prepare: under-threshold 28 64000; demo: ${demo.steps} steps, ${demo.compactions} compactions, ${demo.overflows} overflows, peak ${demo.peakInputTokens}, sent ${demo.totalInputTokens}, cached ${demo.cachedPrefixTokens}`,
);
