// Hub tools in tool search (decision 0070): every retrieval figure of one configuration on one line.
// `npx tsx --conditions=@ctxkit/source bench/retrieval-hubs.ts [json options] [tune|test|all] [label]`
// Columns: MetaTool (199) single top-5 / multi top-5 / multi all-in-top-5; the same with the schema
// corpus (468); APIBench TorchHub top-5 / distinct-task top-5 over 94, 363 and 562 tools; the stress pool
// (MetaTool + schema corpus + APIBench + this package's schema fixtures: 765 tools when decision 0070 was
// measured, 2,336 on 2026-12-02 as fixtures were added; the script prints the count) single / multi top-5
// for MetaTool's requests; median indexing time of the 269 corpus tools and of the stress pool twice
// (1,530); the tools most often in the top 5 (APIBench, 363 tools; stress pool).
import { measureRetrieval, type RetrievalQuery } from '../src/bench/measure-retrieval.ts';
import { createToolSearch, type ToolSearch, type ToolSearchOptions } from '../src/tool-search.ts';
import { createExpandedSearch, createRerankedSearch, type ExpandOptions, type RerankOptions } from './lsa/expand.ts';
import { createLsaModel, type LsaOptions } from './lsa/lsa-model.ts';
import { api, apiTools, distinctQueries as distinct, metaHalf, metaTools, schemaTools, stressPool as stress } from './retrieval-pools.ts';

// `lsa` (decision 0106, experiment): blend in a latent-semantic model learned from each pool's own text;
// `expand`: expand each request with terms learned from the pool (LSA or PMI neighbours, bench/lsa/expand.ts).
// `rerank`: the LSA cosine added to the word match's first tools (bench/lsa/expand.ts).
const { lsa, expand, rerank, ...options } = JSON.parse(process.argv[2] ?? '{}') as ToolSearchOptions & { lsa?: LsaOptions; expand?: ExpandOptions; rerank?: RerankOptions };
const build = (pool: readonly unknown[]) => {
  if (expand !== undefined) return createExpandedSearch(pool, expand);
  if (rerank !== undefined) return createRerankedSearch(pool, rerank);
  if (lsa === undefined) return createToolSearch(pool as unknown[], options);
  const model = createLsaModel(pool, lsa);
  return createToolSearch(pool as unknown[], { ...options, semantic: { embed: model.embed, weight: lsa.weight ?? 1 } });
};
const half = process.argv[3] ?? 'tune';
const { single, multi } = metaHalf(half);
const fixtureTools = stress.slice(metaTools.length + schemaTools.length + apiTools.length);
const pct = (value: number) => (value * 100).toFixed(1);
const mostFound = (index: ToolSearch<unknown>, queries: readonly RetrievalQuery[]) => {
  const counts = new Map<string, number>();
  for (const query of queries) for (const match of index.rank(query.query)) counts.set(match.name, (counts.get(match.name) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
};
const cells: string[] = [];
for (const pool of [metaTools, [...metaTools, ...schemaTools]]) {
  const index = build(pool);
  const multiScore = measureRetrieval(index, multi);
  cells.push(`${pct(measureRetrieval(index, single).topK)} / ${pct(multiScore.topK)} / ${pct(multiScore.allInTopK)}`);
}
let apiHubs = '';
for (const pool of [apiTools, [...apiTools, ...schemaTools], [...apiTools, ...schemaTools, ...metaTools]]) {
  const index = build(pool);
  cells.push(`${pct(measureRetrieval(index, api.queries).topK)} / ${pct(measureRetrieval(index, distinct).topK)}`);
  if (pool.length === apiTools.length + schemaTools.length) apiHubs = mostFound(index, api.queries);
}
const stressIndex = build(stress);
cells.push(`${pct(measureRetrieval(stressIndex, single).topK)} / ${pct(measureRetrieval(stressIndex, multi).topK)}`);
const median = (pool: readonly unknown[], rounds: number) => {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    build(pool);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
};
// HUBS_TIMING=0 leaves the timing column out (sweeps).
const timing = process.env.HUBS_TIMING === '0' ? '–' : `${median(schemaTools, 15).toFixed(0)} / ${median([...stress, ...stress], 5).toFixed(0)} ms`;
console.log(`| ${process.argv[4] ?? process.argv[2] ?? '{}'} | ${cells.join(' | ')} | ${timing} | ${apiHubs} | ${mostFound(stressIndex, single)} |`);
console.error(`stress pool: ${stress.length} tools (${fixtureTools.length} from the fixtures); ${single.length} single, ${multi.length} multi requests (${half})`);
