// The command's overhead: `simulate` on the largest recorded run against one plain exact count
// (js-tiktoken, o200k) of every request it replays, measured in the same process, interleaved,
// median of 5 rounds. Run: npx -y pnpm@12.4.2 bench overhead
import { type Message, textOf } from '@ctxkit/core';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { median } from '../../../tools/bench/measure.ts';
import { simulateRun } from '../src/simulate.ts';
import { largestRecordedRun } from './largest-run.ts';

const { file: largest, messages: recorded } = largestRecordedRun();
const requests: (readonly Message[])[] = [];
await simulateRun(recorded, { window: 32_000, policy: 'ctxkit', onRequest: (request) => requests.push(request) });
const encoder = new Tiktoken(o200k);
const flatten = (request: readonly Message[]) =>
  request
    .map((message) => `${message.role}\n${textOf(message.content)}${message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => `${call.name}${call.arguments}`).join('') : ''}`)
    .join('\n');

const simulateTimes: number[] = [];
const countTimes: number[] = [];
let counted = 0;
for (let round = 0; round < 5; round++) {
  let started = performance.now();
  await simulateRun(recorded, { window: 32_000, policy: 'ctxkit' });
  simulateTimes.push(performance.now() - started);
  started = performance.now();
  counted = 0;
  for (const request of requests) counted += encoder.encode(flatten(request), [], []).length;
  countTimes.push(performance.now() - started);
}
const simulate = median(simulateTimes);
const count = median(countTimes);
console.log(`| run | requests | simulate (ctxkit policy, 32K) | one plain exact count of every request | ratio |`);
console.log('|---|---:|---:|---:|---:|');
console.log(`| ${largest} | ${requests.length} | ${simulate.toFixed(0)} ms | ${count.toFixed(0)} ms (${counted.toLocaleString('en-US')} tokens) | ${(simulate / count).toFixed(2)}× |`);
