// Retrieval figures for docs/benchmarks.md and decision 0020: `npx tsx bench/retrieval-eval.ts [tune|test|all] [json options]`.
// Single-tool requests are split by tool (alternate tools), multi-tool requests by position, so
// constants chosen on the `tune` half are reported on the `test` half.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir } from '@ctxkit/testkit';
import { measureRetrieval, type RetrievalQuery } from '../src/bench/measure-retrieval.ts';
import { defaultStopWords, splitWords } from '../src/search-terms.ts';
import { createToolSearch, type ToolSearchOptions } from '../src/tool-search.ts';

const corpus = corpusDir();
if (!corpus) throw new Error('the shared corpus is absent');
const meta = JSON.parse(readFileSync(join(corpus, 'tool-retrieval', 'metatool.json'), 'utf8')) as {
  tools: { name: string; description: string }[];
  queries: RetrievalQuery[];
  multiToolQueries: RetrievalQuery[];
};
const schemaDir = join(corpus, 'schemas');
const distractors = readdirSync(schemaDir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .flatMap((file) => JSON.parse(readFileSync(join(schemaDir, file), 'utf8')) as unknown[]);
const half = (process.argv[2] ?? 'all') as 'tune' | 'test' | 'all';
const options = JSON.parse(process.argv[3] ?? '{}') as ToolSearchOptions & { weight?: number; sif?: number };
// Optional 4th argument: word vectors as { word: [vector, norm, frequencyRank] } (an experiment with
// static word vectors passed in through `semantic`; nothing of the kind ships with the package).
const vectorFile = process.argv[4];
if (vectorFile) {
  const table = JSON.parse(readFileSync(vectorFile, 'utf8')) as Record<string, [number[], number, number]>;
  const stop = new Set(defaultStopWords);
  const a = options.sif ?? 1e-3;
  options.semantic = {
    weight: options.weight ?? 1,
    embed: (text) => {
      const sum = new Float64Array(100);
      let any = false;
      for (const word of splitWords(text)) {
        const entry = stop.has(word) ? undefined : table[word];
        if (!entry) continue;
        // SIF weight a / (a + p(w)), with p(w) from the word's frequency rank (Zipf).
        const p = 1 / ((entry[2] + 10) * Math.log(341_479));
        const w = a / (a + p) / (entry[1] || 1);
        for (let index = 0; index < 100; index++) sum[index]! += entry[0][index]! * w;
        any = true;
      }
      return any ? sum : undefined;
    },
  };
}
const toolPosition = new Map(meta.tools.map((tool, position) => [tool.name, position]));
const inHalf = (even: boolean) => half === 'all' || even === (half === 'tune');
const single = meta.queries.filter((query) => inHalf(toolPosition.get(query.tools[0]!)! % 2 === 0));
const multi = meta.multiToolQueries.filter((_query, position) => inHalf(position % 2 === 0));
const tools = meta.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: { type: 'object' } }));
const pct = (value: number) => (value * 100).toFixed(1);
for (const [label, pool] of [
  ['metatool (199 tools)', tools],
  [`metatool + schema corpus (${tools.length + distractors.length} tools)`, [...tools, ...distractors]],
] as const) {
  const index = createToolSearch(pool as unknown[], options);
  for (const [kind, queries] of [
    ['single', single],
    ['multi', multi],
  ] as const) {
    const score = measureRetrieval(index, queries);
    console.log(`${half}\t${label}\t${kind} (${score.queries})\ttop-1 ${pct(score.top1)}\ttop-5 ${pct(score.topK)}\tall-in-top-5 ${pct(score.allInTopK)}`);
  }
}
