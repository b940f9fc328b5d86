// What every benchmark script shares: the statistics and the timing loops. The scripts
// (packages/*/bench/*.bench.ts, run by tools/bench/run.mjs) import this file by relative path; it is
// not part of any package, so no runtime entry point carries it (decision 0051).

/** The middle value of a sample; for an even count, the mean of the two middle values. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The value at `fraction` of a sample (0.95: the 95th percentile): index floor(fraction × count), at most the largest. */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

/** Each round's ratio of two samples taken in the same rounds (`numerator[i] / denominator[i]`). */
export function roundRatios(numerator: readonly number[], denominator: readonly number[]): number[] {
  return numerator.map((value, round) => value / denominator[round]!);
}

/** Milliseconds one call of `run` takes, the mean over `calls` calls one after another (a returned promise is awaited). */
export async function timePerCall(run: () => unknown, calls: number): Promise<number> {
  const start = performance.now();
  for (let index = 0; index < calls; index++) {
    const result = run();
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') await result;
  }
  return (performance.now() - start) / calls;
}

/** How {@link interleavedRounds} runs its tasks. */
export interface RoundsOptions {
  /** Timed rounds; each records one time per task. */
  rounds: number;
  /** Calls per timed section: each round records the mean time of one call. @default 1 */
  calls?: number;
  /**
   * `fixed`: the tasks in the order given every round. `rotate`: the order turned one place each round, so
   * no task always runs first (on a warmer or colder machine); with two tasks, they alternate. @default 'fixed'
   */
  order?: 'fixed' | 'rotate';
  /** Run every task's section once, untimed, before the first round. @default false */
  warmUp?: boolean;
  /** Collect garbage before each timed section (where the script runs with --expose-gc), so one task does not pay for another's allocations. @default false */
  collect?: boolean;
}

/**
 * Times tasks in interleaved rounds, so each sample sees the same machine state as the others in its
 * round: returns each task's times (ms a call), one per round, by task name.
 * @example const times = await interleavedRounds({ baseline: () => JSON.stringify(messages), tier: () => tier.apply(messages, context) }, { rounds: 9, calls: 20 });
 */
export async function interleavedRounds<Name extends string>(tasks: Record<Name, () => unknown>, options: RoundsOptions): Promise<Record<Name, number[]>> {
  const { rounds, calls = 1, order = 'fixed', warmUp = false, collect = false } = options;
  const names = Object.keys(tasks) as Name[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  if (warmUp) for (const name of names) await timePerCall(tasks[name], calls);
  for (let round = 0; round < rounds; round++) {
    const turn = order === 'rotate' ? round % names.length : 0;
    for (const name of [...names.slice(turn), ...names.slice(0, turn)]) {
      if (collect) (globalThis as { gc?: () => void }).gc?.();
      times[name].push(await timePerCall(tasks[name], calls));
    }
  }
  return times;
}

/** What {@link costAgainstStringify} measured: median milliseconds a call, and the median of the per-round ratios. */
export interface StringifyCost {
  /** Median ms of one `JSON.stringify(messages)`. */
  stringifyMs: number;
  /** Median ms of one call of the task. */
  runMs: number;
  /** Median of the per-round ratios, task ÷ stringify. */
  ratio: number;
}

/**
 * What `run` costs next to serialising the transcript it works on (`JSON.stringify(messages)`, the least a
 * host does to send a request), in interleaved rounds with the two alternating which goes first.
 */
export async function costAgainstStringify(messages: unknown, run: () => unknown, options: { rounds: number; calls: number }): Promise<StringifyCost> {
  const times = await interleavedRounds({ stringify: () => JSON.stringify(messages), run }, { ...options, order: 'rotate' });
  return { stringifyMs: median(times.stringify), runMs: median(times.run), ratio: median(roundRatios(times.run, times.stringify)) };
}

/** A markdown table row for a {@link StringifyCost}: `| label | stringify ms | run ms | ratio× |`. */
export function stringifyCostRow(label: string, cost: StringifyCost): string {
  return `| ${label} | ${cost.stringifyMs.toFixed(2)} ms | ${cost.runMs.toFixed(2)} ms | ${cost.ratio.toFixed(1)}× |`;
}

/** Prints a title and the markdown table of {@link stringifyCostRow} rows, `column` naming what was run. */
export function printStringifyCostTable(title: string, column: string, rows: readonly string[]): void {
  console.log(title);
  console.log(`| run | JSON.stringify | ${column} | ratio (median of rounds) |`);
  console.log('|---|---:|---:|---:|');
  for (const row of rows) console.log(row);
}
