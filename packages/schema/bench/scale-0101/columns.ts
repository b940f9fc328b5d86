// Decision 0101: every column of bench/retrieval-hubs.ts for one scorer configuration.
// `npx tsx --conditions=@ctxkit/source bench/scale-0101/columns.ts '<ScaleOptions JSON>' [tune|test|all] [label]`
// '{}' reproduces createToolSearch's defaults before 0101; the candidate, adopted as the default since, is
// '{"combine":"bm25f","wName":3,"k":4,"genericPrior":0.3}' (bench/retrieval-hubs.ts '{}' gives the same row).
import type { RetrievalQuery } from '../../src/bench/measure-retrieval.ts';
import { api, apiTools, corpusPool, distinctQueries, metaHalf, metaTools, schemaTools, stressPool } from '../retrieval-pools.ts';
import { createScaleIndex, type ScaleOptions } from './scorer.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as ScaleOptions;
const { single, multi } = metaHalf(process.argv[3] ?? 'tune');
const pct = (value: number) => (value * 100).toFixed(1);
const measure = (index: ReturnType<typeof createScaleIndex>, queries: readonly RetrievalQuery[]) => {
  let found = 0;
  let all = 0;
  for (const query of queries) {
    const got = index.rank(query.query).map((match) => match.name);
    if (query.tools.some((name) => got.includes(name))) found++;
    if (query.tools.every((name) => got.includes(name))) all++;
  }
  return { topK: found / queries.length, allInTopK: all / queries.length };
};
const cells: string[] = [];
for (const pool of [metaTools, corpusPool]) {
  const index = createScaleIndex(pool, options);
  const multiScore = measure(index, multi);
  cells.push(`${pct(measure(index, single).topK)} / ${pct(multiScore.topK)} / ${pct(multiScore.allInTopK)}`);
}
for (const pool of [apiTools, [...apiTools, ...schemaTools], [...apiTools, ...schemaTools, ...metaTools]]) {
  const index = createScaleIndex(pool, options);
  cells.push(`${pct(measure(index, api.queries).topK)} / ${pct(measure(index, distinctQueries).topK)}`);
}
const stress = createScaleIndex(stressPool, options);
cells.push(`${pct(measure(stress, single).topK)} / ${pct(measure(stress, multi).topK)}`);
console.log(`| ${process.argv[4] ?? JSON.stringify(options)} | ${cells.join(' | ')} |`);
