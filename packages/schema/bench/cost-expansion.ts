// Scratch (decision 0097): indexing and search time with an option set against the defaults, interleaved
// rounds, medians and the median of per-round ratios. `npx tsx --conditions=@ctxkit/source bench/cost-expansion.ts '<options JSON>' [rounds]`
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolSearch, type ToolSearchOptions } from '../src/tool-search.ts';
import { withExpansion } from './expansion-option.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const schemaTools = readdirSync(join(root, 'corpus', 'schemas'))
  .filter((file) => file.endsWith('.json'))
  .sort()
  .flatMap((file) => read(join(root, 'corpus', 'schemas', file)) as unknown[]);
const queries = (read(join(root, 'corpus', 'tool-retrieval', 'metatool.json')) as { queries: { query: string }[] }).queries.slice(0, 100).map((entry) => entry.query);
const options = withExpansion(JSON.parse(process.argv[2] ?? '{}'));
const rounds = Number(process.argv[3] ?? 15);
const time = (run: () => void) => {
  const start = performance.now();
  run();
  return performance.now() - start;
};
const measure = (settings: ToolSearchOptions) => {
  let index = createToolSearch(schemaTools, settings);
  const indexing = time(() => {
    index = createToolSearch(schemaTools, settings);
  });
  const searching = time(() => {
    for (const query of queries) index.search(query);
  });
  return { indexing, searching };
};
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows = { baseIndex: [] as number[], index: [] as number[], baseSearch: [] as number[], search: [] as number[], indexRatio: [] as number[], searchRatio: [] as number[] };
measure({});
measure(options);
for (let round = 0; round < rounds; round++) {
  const base = measure({});
  const withIt = measure(options);
  rows.baseIndex.push(base.indexing);
  rows.index.push(withIt.indexing);
  rows.baseSearch.push(base.searching);
  rows.search.push(withIt.searching);
  rows.indexRatio.push(withIt.indexing / base.indexing);
  rows.searchRatio.push(withIt.searching / base.searching);
}
console.log(
  `${schemaTools.length} tools, ${rounds} interleaved rounds: indexing ${median(rows.index).toFixed(1)} ms against ${median(rows.baseIndex).toFixed(1)} ms (${median(rows.indexRatio).toFixed(2)}x); ` +
    `100 searches ${median(rows.search).toFixed(1)} ms against ${median(rows.baseSearch).toFixed(1)} ms (${median(rows.searchRatio).toFixed(2)}x)`,
);
