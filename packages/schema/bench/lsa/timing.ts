// Decision 0106's cost check: indexing the stress pool with createToolSearch as it is, against the same with an
// LSA model of the pool (built, then blended through `semantic`), interleaved, medians of 7 rounds and the median
// of the per-round ratios; and 100 searches. `npx tsx --conditions=@ctxkit/source bench/lsa/timing.ts '<LsaOptions>'`
import { createToolSearch } from '../../src/tool-search.ts';
import { metaHalf, stressPool } from '../retrieval-pools.ts';
import { createLsaModel, type LsaOptions } from './lsa-model.ts';
import { median, timed } from '../timing-rounds.ts';

const options = JSON.parse(process.argv[2] ?? '{"k":128,"weight":0.1}') as LsaOptions;
const queries = metaHalf('tune')
  .single.slice(0, 100)
  .map((query) => query.query);
const withLsa = () => {
  const model = createLsaModel(stressPool, options);
  return createToolSearch(stressPool, { semantic: { embed: model.embed, weight: options.weight ?? 1 } });
};
const rounds = { plain: [] as number[], lsa: [] as number[], ratio: [] as number[], plainSearch: [] as number[], lsaSearch: [] as number[], searchRatio: [] as number[] };
for (let round = 0; round < 7; round++) {
  const [plain, plainTime] = timed(() => createToolSearch(stressPool));
  const [lsa, lsaTime] = timed(withLsa);
  const [, plainSearch] = timed(() => queries.map((query) => plain.rank(query)));
  const [, lsaSearch] = timed(() => queries.map((query) => lsa.rank(query)));
  rounds.plain.push(plainTime);
  rounds.lsa.push(lsaTime);
  rounds.ratio.push(lsaTime / plainTime);
  rounds.plainSearch.push(plainSearch);
  rounds.lsaSearch.push(lsaSearch);
  rounds.searchRatio.push(lsaSearch / plainSearch);
}
console.log(
  `${stressPool.length} tools, ${JSON.stringify(options)}: index ${median(rounds.plain).toFixed(0)} ms today, ${median(rounds.lsa).toFixed(0)} ms with LSA (${median(rounds.ratio).toFixed(2)}×); ` +
    `100 searches ${median(rounds.plainSearch).toFixed(0)} ms today, ${median(rounds.lsaSearch).toFixed(0)} ms with LSA (${median(rounds.searchRatio).toFixed(2)}×)`,
);
