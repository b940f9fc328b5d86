// Decision 0101, "Tuned again under BM25F": every column of bench/retrieval-hubs.ts plus top-1, for one or more
// settings of createToolSearch's word match, the generic-word prior (a constant in src) exposed.
// `npx tsx --conditions=@ctxkit/source bench/scale-0101/top1-sweep.ts [tune|test|all] '<options JSON>' ['<options JSON>' ...]`
// Options: name, description, parameters (field weights), k, b, d, genericPrior, hubPenalty, and (section "A bonus for a
// word in two fields") agreement, agreementFields, agreementTop, firstByBefore, firstMargin; '{}' is the default
// (3 / 1 / 0.05, 4, 0.7, 0.5, 0.3, 2) and ranks as createToolSearch does (checked against retrieval-hubs.ts and
// retrieval-eval.ts). Printed per setting: M199 and M468 single top-1 / top-5, multi top-1 / top-5 / all-in-top-5;
// A94 / A363 / A562 top-5 / distinct-task top-5; S2224 single top-1 / top-5, multi top-1 / top-5.
import type { RetrievalQuery } from '../../src/bench/measure-retrieval.ts';
import { api, apiTools, corpusPool, distinctQueries, metaHalf, metaTools, schemaTools, stressPool } from '../retrieval-pools.ts';
import { createBefore0101Search } from './before-0101.ts';
import { createSweepSearch, type SweepOptions } from './sweep-search.ts';

const pct = (value: number) => (value * 100).toFixed(1);
type Ranker = { rank(query: string): string[] };
// 'before' is the ranking before decision 0101 (before-0101.ts: MiniSearch, summed fields, name 1, k 2.2).
// `firstByBefore: N` (with any sweep options) puts first, of today's first N, the tool the ranking before 0101 scores
// highest, and leaves the others in today's order: only the first place moves, the top 5 stays the same set. With
// `firstMargin: r`, only tools scoring at least r × today's first score may take its place.
type Setting = SweepOptions & { firstByBefore?: number; firstMargin?: number };
const ranker = (pool: readonly unknown[], setting: Setting | 'before'): Ranker => {
  if (setting !== 'before') {
    const { firstByBefore, firstMargin = 0, ...options } = setting;
    const today = createSweepSearch(pool, options);
    if (firstByBefore === undefined) return today;
    const before = createBefore0101Search(pool);
    return {
      rank: (query) => {
        const scored = today.scored(query);
        const got = scored.map((match) => match.name);
        const old = new Map(before.rank(query, { limit: pool.length }).map((match) => [match.name, match.score]));
        const head = scored
          .slice(0, firstByBefore)
          .filter((match) => match.score >= firstMargin * scored[0]!.score)
          .map((match) => match.name);
        const first = head.reduce((best, name) => ((old.get(name) ?? 0) > (old.get(best) ?? 0) ? name : best), head[0]!);
        return head.length === 0 ? got : [first, ...got.filter((name) => name !== first)];
      },
    };
  }
  const before = createBefore0101Search(pool);
  return { rank: (query) => before.rank(query).map((match) => match.name) };
};
const measure = (index: Ranker, queries: readonly RetrievalQuery[]) => {
  let first = 0;
  let found = 0;
  let all = 0;
  for (const query of queries) {
    const got = index.rank(query.query);
    if (got[0] !== undefined && query.tools.includes(got[0])) first++;
    if (query.tools.some((name) => got.includes(name))) found++;
    if (query.tools.every((name) => got.includes(name))) all++;
  }
  return { top1: pct(first / queries.length), topK: pct(found / queries.length), all: pct(all / queries.length) };
};

function row(options: Setting | 'before', single: readonly RetrievalQuery[], multi: readonly RetrievalQuery[]): string {
  const cells: string[] = [];
  for (const pool of [metaTools, corpusPool]) {
    const index = ranker(pool, options);
    const one = measure(index, single);
    const many = measure(index, multi);
    cells.push(`${one.top1} / ${one.topK} · ${many.top1} / ${many.topK} / ${many.all}`);
  }
  for (const pool of [apiTools, [...apiTools, ...schemaTools], [...apiTools, ...schemaTools, ...metaTools]]) {
    const index = ranker(pool, options);
    cells.push(`${measure(index, api.queries).topK} / ${measure(index, distinctQueries).topK}`);
  }
  const stress = ranker(stressPool, options);
  const one = measure(stress, single);
  const many = measure(stress, multi);
  cells.push(`${one.top1} / ${one.topK} · ${many.top1} / ${many.topK}`);
  return `| ${JSON.stringify(options)} | ${cells.join(' | ')} |`;
}

const { single, multi } = metaHalf(process.argv[2] ?? 'tune');
for (const json of process.argv.slice(3).length > 0 ? process.argv.slice(3) : ['{}']) console.log(row(json === 'before' ? 'before' : (JSON.parse(json) as Setting), single, multi));
