// The cost of manager.prepare() on a step that does not compact, as a recorded run grows one request at a
// time (the hot path: every agent step pays it), against JSON.stringify of the same transcript (what any
// host does to send it). 5 rounds over the largest recorded run; medians. Run: npx -y pnpm@12.4.2 bench prepare
import type { Message } from '@ctxkit/core';
import { median } from '../../../tools/bench/measure.ts';
import { createCtxkit } from '../src/preset.ts';
import { largestRecordedRun } from './largest-run.ts';

const { file: largest, messages: recorded } = largestRecordedRun();

const prepareMs: number[] = [];
const stringifyMs: number[] = [];
let lastTokens = 0;
for (let round = 0; round < 5; round++) {
  // A window large enough that no step compacts: this measures the per-step overhead alone.
  const manager = createCtxkit({ model: 'm', contextWindow: 1_000_000, maxOutputTokens: 4_096 });
  await manager.meter.ready();
  const history: Message[] = [];
  for (const message of recorded) {
    history.push(message);
    if (message.role !== 'assistant') continue;
    let started = performance.now();
    const { report } = await manager.prepare(history);
    prepareMs.push(performance.now() - started);
    started = performance.now();
    JSON.stringify(history);
    stringifyMs.push(performance.now() - started);
    manager.record({ usage: { inputTokens: report.measurement.total }, messageCount: history.length });
    lastTokens = report.measurement.total;
  }
}
console.log('| run | steps × rounds | final size | prepare() per step (median) | JSON.stringify of the transcript (median) | ratio |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(
  `| ${largest} | ${prepareMs.length} | ${lastTokens.toLocaleString('en-US')} tokens | ${median(prepareMs).toFixed(3)} ms | ${median(stringifyMs).toFixed(3)} ms | ${(median(prepareMs) / median(stringifyMs)).toFixed(2)}× |`,
);
