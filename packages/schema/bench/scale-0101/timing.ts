// Decision 0101's cost check: createToolSearch (BM25F since 0101) against its MiniSearch version before
// 0101 (bench/scale-0101/before-0101.ts), interleaved, medians of 9 rounds (and the median of the
// per-round ratios). `npx tsx --conditions=@ctxkit/source bench/scale-0101/timing.ts`
import { createToolSearch } from '../../src/tool-search.ts';
import { createBefore0101Search } from './before-0101.ts';
import { metaHalf, schemaTools, stressPool } from '../retrieval-pools.ts';
import { median, timed } from '../timing-rounds.ts';

const queries = metaHalf('tune')
  .single.slice(0, 100)
  .map((query) => query.query);
for (const [label, pool] of [
  ['269 corpus tools', schemaTools],
  [`${stressPool.length} stress-pool tools`, stressPool],
] as const) {
  const rounds = { beforeIndex: [] as number[], nowIndex: [] as number[], beforeSearch: [] as number[], nowSearch: [] as number[], indexRatio: [] as number[], searchRatio: [] as number[] };
  for (let round = 0; round < 9; round++) {
    const [before, beforeIndex] = timed(() => createBefore0101Search(pool));
    const [now, nowIndex] = timed(() => createToolSearch(pool));
    const [, beforeSearch] = timed(() => queries.map((query) => before.rank(query)));
    const [, nowSearch] = timed(() => queries.map((query) => now.rank(query)));
    rounds.beforeIndex.push(beforeIndex);
    rounds.nowIndex.push(nowIndex);
    rounds.beforeSearch.push(beforeSearch);
    rounds.nowSearch.push(nowSearch);
    rounds.indexRatio.push(nowIndex / beforeIndex);
    rounds.searchRatio.push(nowSearch / beforeSearch);
  }
  console.log(
    `${label}: index ${median(rounds.beforeIndex).toFixed(1)} ms before 0101 (MiniSearch), ${median(rounds.nowIndex).toFixed(1)} ms BM25F (${median(rounds.indexRatio).toFixed(2)}×); ` +
      `100 searches ${median(rounds.beforeSearch).toFixed(1)} ms before, ${median(rounds.nowSearch).toFixed(1)} ms BM25F (${median(rounds.searchRatio).toFixed(2)}×)`,
  );
}
