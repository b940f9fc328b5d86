// What the cost checks (bench/scale-0101/timing.ts, bench/lsa/timing.ts) time with: the median of a round's
// figures, and a call's value with the milliseconds it took.

/** The median of some figures (the upper middle one when there is an even number of them). */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs `run` once: its value and the milliseconds it took. */
export const timed = <T>(run: () => T): [T, number] => {
  const start = performance.now();
  const value = run();
  return [value, performance.now() - start];
};
