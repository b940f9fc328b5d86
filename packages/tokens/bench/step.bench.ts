// Benchmark 2: what one agent step costs the meter while a recorded run grows one message per step
// up to 200K tokens, against recounting the whole transcript every step.
//
// The transcript is recorded runs joined end to end (one system prompt, then their messages) until it
// holds 200K o200k tokens. Each step appends one message to the same array (as a host does), then
// times `measure()` and the `record()` of the simulated provider report for that request. Every round
// builds new meters and counters (cold per-message and piece caches); the modes run interleaved in a
// rotated order; tables show medians over rounds.
import type { Message } from '@ctxkit/core';
import { createMeter, heuristicEstimator, tiktokenCounter } from '@ctxkit/tokens';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { median, percentile } from '../../../tools/bench/measure.ts';
import { environment, format, recordedRuns, textsOf } from './shared.ts';

const targetTokens = 200_000;
const windowSteps = 50; // the last steps before the target: "at 200K tokens"

async function buildTranscript(): Promise<{ messages: Message[]; truth: number[] }> {
  const runs = recordedRuns().sort((left, right) => right.messages.length - left.messages.length);
  const exact = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
  await exact.ready();
  const messages: Message[] = [runs[0]!.messages[0]!];
  const truth: number[] = [exact.countMessages(messages)];
  for (const run of runs) {
    for (const message of run.messages) {
      if (message.role === 'system') continue;
      messages.push(message);
      truth.push(truth[truth.length - 1]! + exact.countMessages([message]) - 3); // one request's framing, not two
      if (truth[truth.length - 1]! >= targetTokens) return { messages, truth };
    }
  }
  throw new Error(`the corpus holds fewer than ${targetTokens} tokens`);
}

type Mode = 'meter, estimate' | 'meter, exact (ranks loaded)' | 'recount, heuristic' | 'recount, ctxkit counter' | 'recount, plain js-tiktoken';
const modes: Mode[] = ['meter, estimate', 'meter, exact (ranks loaded)', 'recount, heuristic', 'recount, ctxkit counter', 'recount, plain js-tiktoken'];

interface ModeRun {
  /** Milliseconds per step, for the steps timed. */
  steps: number[];
  /** Milliseconds per step in the last `windowSteps` steps before the target. */
  atTarget: number[];
  finalTotal: number;
}

const plainEncoder = new Tiktoken(o200k);

async function runMode(mode: Mode, messages: readonly Message[], truth: readonly number[]): Promise<ModeRun> {
  const steps: number[] = [];
  const atTarget: number[] = [];
  const last = messages.length;
  const tools = [{ name: 'bash', description: 'Run a shell command', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } }];
  let finalTotal = 0;
  if (mode.startsWith('meter')) {
    const exact = mode === 'meter, exact (ranks loaded)';
    const meter = createMeter(exact ? { tokenizer: tiktokenCounter('o200k_base') } : {});
    if (exact) await meter.ready();
    const growing: Message[] = [];
    for (let step = 0; step < last; step++) {
      growing.push(messages[step]!);
      const begin = performance.now();
      const measured = meter.measure(growing, { tools, model: 'gpt-4o' });
      meter.record({ inputTokens: truth[step]!, messageCount: growing.length, model: 'gpt-4o' });
      const elapsed = performance.now() - begin;
      steps.push(elapsed);
      if (step >= last - windowSteps) atTarget.push(elapsed);
      finalTotal = measured.total;
    }
    return { steps, atTarget, finalTotal };
  }
  // Recounting costs the whole transcript every step: time only the last steps (the slow baseline
  // would take hours over the whole run), on a counter warmed by counting the start of the run.
  const estimator = heuristicEstimator();
  const counter = tiktokenCounter('o200k_base', {});
  await counter.load();
  const countText =
    mode === 'recount, heuristic'
      ? (text: string) => estimator.estimate(text)
      : mode === 'recount, ctxkit counter'
        ? (text: string) => counter.count(text)
        : (text: string) => plainEncoder.encode(text, [], []).length;
  const recount = (upTo: number) => {
    let total = 0;
    for (let index = 0; index < upTo; index++) for (const text of textsOf([messages[index]!])) total += countText(text);
    return total;
  };
  const timed = mode === 'recount, plain js-tiktoken' ? 3 : windowSteps;
  recount(last - timed); // the step before the window: a long run's caches are warm by then
  for (let step = last - timed; step < last; step++) {
    const begin = performance.now();
    finalTotal = recount(step + 1);
    const elapsed = performance.now() - begin;
    steps.push(elapsed);
    atTarget.push(elapsed);
  }
  return { steps, atTarget, finalTotal };
}

async function main(): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const { messages, truth } = await buildTranscript();
  const results = new Map<Mode, ModeRun[]>(modes.map((mode) => [mode, []]));
  for (let round = 0; round < rounds; round++) {
    const order = modes.map((_, index) => modes[(index + round) % modes.length]!);
    for (const mode of order) {
      (globalThis as { gc?: () => void }).gc?.();
      results.get(mode)!.push(await runMode(mode, messages, truth));
    }
    process.stderr.write(`round ${round + 1}/${rounds} done\n`);
  }
  const baseline = median(results.get('recount, plain js-tiktoken')!.map((run) => median(run.atTarget)));
  console.log(
    `One step (append a message, measure, record the report) while a transcript of ${messages.length} recorded messages grows to ${format.number(truth[truth.length - 1]!)} o200k tokens; ${rounds} rounds; ${environment()}.\n`,
  );
  console.log(`| mode | ms a step at 200K (median of last ${windowSteps}) | p95 over the run | max over the run | plain js-tiktoken recount ÷ this |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const mode of modes) {
    const runs = results.get(mode)!;
    const atTarget = median(runs.map((run) => median(run.atTarget)));
    const p95 = median(runs.map((run) => percentile(run.steps, 0.95)));
    const max = median(runs.map((run) => Math.max(...run.steps)));
    const isMeter = mode.startsWith('meter');
    console.log(`| ${mode} | ${format.number(atTarget, 3)} | ${isMeter ? format.number(p95, 3) : '—'} | ${isMeter ? format.number(max, 3) : '—'} | ${format.number(baseline / atTarget)}× |`);
  }
  const worst = Math.max(...modes.filter((mode) => mode.startsWith('meter')).map((mode) => median(results.get(mode)!.map((run) => median(run.atTarget)))));
  console.log(`\nGoal (at most 0.2 ms a step at 200K tokens): ${worst <= 0.2 ? 'met' : 'not met'} (slowest meter mode ${format.number(worst, 3)} ms).`);
}

await main();
