// Cost of the model in experiments/embed/use-model.ts: load time, one request embedded at a time
// (what a search pays), tools embedded in batches (what indexing pays), and memory.
//   npx tsx experiments/embed/cost.ts
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedTexts } from './use-model.ts';

const here = dirname(fileURLToPath(import.meta.url));
const meta = JSON.parse(readFileSync(join(here, '..', '..', 'corpus', 'tool-retrieval', 'metatool.json'), 'utf8')) as {
  tools: { name: string; description: string }[];
  queries: { query: string }[];
};
const rss = () => `${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(`before load: rss ${rss()}`);
let started = performance.now();
await embedTexts(['warm up']);
console.log(`load + first embed: ${(performance.now() - started).toFixed(0)} ms, rss ${rss()}`);

const times: number[] = [];
for (const { query } of meta.queries.filter((_query, position) => position % 20 === 0)) {
  started = performance.now();
  await embedTexts([query]);
  times.push(performance.now() - started);
}
console.log(`one request at a time: median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms over ${times.length} requests, rss ${rss()}`);

started = performance.now();
await embedTexts(meta.tools.map((tool) => `${tool.name}\n${tool.description}`));
const elapsed = performance.now() - started;
console.log(`199 tools in batches of 32: ${elapsed.toFixed(0)} ms (${(elapsed / 199).toFixed(1)} ms a tool), rss ${rss()}`);
