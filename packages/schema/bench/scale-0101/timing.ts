// Decision 0101's cost check: createToolSearch's defaults against the scratch BM25F scorer with the
// candidate setting, interleaved, medians of 9 rounds (and the median of the per-round ratios).
// `npx tsx --conditions=@ctxkit/source bench/scale-0101/timing.ts`
import { createToolSearch } from '../../src/tool-search.ts';
import { metaHalf, schemaTools, stressPool } from './pools.ts';
import { createScaleIndex } from './scorer.ts';

const candidate = { combine: 'bm25f', wName: 3, k: 4, genericPrior: 0.3 } as const;
const queries = metaHalf('tune')
  .single.slice(0, 100)
  .map((query) => query.query);
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const timed = <T>(run: () => T): [T, number] => {
  const start = performance.now();
  const value = run();
  return [value, performance.now() - start];
};
for (const [label, pool] of [
  ['269 corpus tools', schemaTools],
  [`${stressPool.length} stress-pool tools`, stressPool],
] as const) {
  const rounds = { todayIndex: [] as number[], candidateIndex: [] as number[], todaySearch: [] as number[], candidateSearch: [] as number[], indexRatio: [] as number[], searchRatio: [] as number[] };
  for (let round = 0; round < 9; round++) {
    const [today, todayIndex] = timed(() => createToolSearch(pool));
    const [scratch, candidateIndex] = timed(() => createScaleIndex(pool, candidate));
    const [, todaySearch] = timed(() => queries.map((query) => today.rank(query)));
    const [, candidateSearch] = timed(() => queries.map((query) => scratch.rank(query)));
    rounds.todayIndex.push(todayIndex);
    rounds.candidateIndex.push(candidateIndex);
    rounds.todaySearch.push(todaySearch);
    rounds.candidateSearch.push(candidateSearch);
    rounds.indexRatio.push(candidateIndex / todayIndex);
    rounds.searchRatio.push(candidateSearch / todaySearch);
  }
  console.log(
    `${label}: index ${median(rounds.todayIndex).toFixed(1)} ms today, ${median(rounds.candidateIndex).toFixed(1)} ms candidate (${median(rounds.indexRatio).toFixed(2)}×); ` +
      `100 searches ${median(rounds.todaySearch).toFixed(1)} ms today, ${median(rounds.candidateSearch).toFixed(1)} ms candidate (${median(rounds.searchRatio).toFixed(2)}×)`,
  );
}
