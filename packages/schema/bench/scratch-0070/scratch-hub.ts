// SCRATCH runner for decision 0070: every measurement for one options JSON on one line set.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureRetrieval, type RetrievalQuery } from '../../src/bench/measure-retrieval.ts';
import { createToolSearch, type ToolSearchOptions, toolSearchText } from '../../src/tool-search.ts';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const options = JSON.parse(process.argv[2] ?? '{}') as ToolSearchOptions;
const half = process.argv[3] ?? 'tune';
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const meta = read(join(root, 'corpus', 'tool-retrieval', 'metatool.json')) as { tools: { name: string; description: string }[]; queries: RetrievalQuery[]; multiToolQueries: RetrievalQuery[] };
const schemaDir = join(root, 'corpus', 'schemas');
const schemaTools = readdirSync(schemaDir).filter((f) => f.endsWith('.json')).sort().flatMap((f) => read(join(schemaDir, f)) as unknown[]);
const fixtureDir = join(import.meta.dirname, '..', '..', 'src', '__fixtures__');
const seen = new Set(schemaTools.map((t) => { const x = toolSearchText(t)!; return `${x.name}\n${x.description}`; }));
const fixtureTools = readdirSync(fixtureDir).filter((f) => f.endsWith('.json')).sort().flatMap((f) => (read(join(fixtureDir, f)) as { tools: unknown[] }).tools).filter((t) => {
  const x = toolSearchText(t);
  if (!x) return false;
  const key = `${x.name}\n${x.description}`;
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
});
const api = read(join(root, 'corpus', 'tool-retrieval', 'apibench-torchhub.json')) as { tools: { name: string; api_name: string; domain: string; functionality: string; description: string }[]; queries: RetrievalQuery[] };
const apiTools = api.tools.map((t) => ({ name: t.name, title: t.api_name, description: `${t.domain}. ${t.functionality}. ${t.description}`, inputSchema: { type: 'object' } }));
const metaTools = meta.tools.map((t) => ({ ...t, inputSchema: { type: 'object' } }));
const position = new Map(meta.tools.map((t, i) => [t.name, i]));
const inHalf = (even: boolean) => half === 'all' || even === (half === 'tune');
const single = meta.queries.filter((q) => inHalf(position.get(q.tools[0]!)! % 2 === 0));
const multi = meta.multiToolQueries.filter((_q, i) => inHalf(i % 2 === 0));
const distinctTask = new Set('slow_r50 hybridnets yolop DPT_Large DPT_Hybrid MiDaS_small umxhq ntsnet silero_stt silero_tts silero_vad deeplabv3_resnet50 deeplabv3_resnet101 deeplabv3_mobilenet_v3_large yolov5s DCGAN PGAN unet nvidia_waveglow roberta.large fcn_resnet50 fcn_resnet101 slowfast_r50 x3d_s huggingface/pytorch-transformers pytorch/fairseq nvidia_ssd nvidia_tacotron2'.split(' '));
const distinct = api.queries.filter((q) => distinctTask.has(q.tools[0]!));
const pct = (v: number) => (v * 100).toFixed(1);
const unique = process.env.UNIQUE === '1';
const dedupe = (pool: unknown[]) => {
  if (!unique) return pool;
  const names = new Set<string>();
  return pool.filter((t) => { const n = toolSearchText(t)!.name; if (names.has(n)) return false; names.add(n); return true; });
};
const fold = process.argv[5] === 'fold';
// Two-fold query bank: each half of the requests is ranked with the other half as the bank.
function measure(given: unknown[], queries: readonly RetrievalQuery[], extra: readonly RetrievalQuery[] = []) {
  const pool = dedupe(given);
  if (!fold || !options.hubness) {
    const index = createToolSearch(pool, options);
    const s = measureRetrieval(index, queries);
    return { topK: s.topK, allInTopK: s.allInTopK, index };
  }
  const halves = [0, 1].map((h) => queries.filter((_q, i) => i % 2 === h));
  const banks = [0, 1].map((h) => [...queries, ...extra].filter((_q, i) => i % 2 !== h).map((q) => q.query));
  let topK = 0;
  let all = 0;
  let index;
  for (const h of [0, 1]) {
    index = createToolSearch(pool, { ...options, hubness: { ...options.hubness!, queries: banks[h]! } });
    const s = measureRetrieval(index, halves[h]!);
    topK += s.topK * s.queries;
    all += s.allInTopK * s.queries;
  }
  return { topK: topK / queries.length, allInTopK: all / queries.length, index: index! };
}
const cells: string[] = [];
const hubs: string[] = [];
for (const pool of [metaTools, [...metaTools, ...schemaTools]]) {
  const s = measure(pool as unknown[], single);
  const m = measure(pool as unknown[], multi);
  cells.push(`${pct(s.topK)} / ${pct(m.topK)} / ${pct(m.allInTopK)}`);
}
for (const pool of [apiTools, [...apiTools, ...schemaTools], [...apiTools, ...schemaTools, ...metaTools]]) {
  const all = measure(pool as unknown[], api.queries);
  const index = all.index;
  const d = measure(pool as unknown[], distinct);
  cells.push(`${pct(all.topK)} / ${pct(d.topK)}`);
  if (pool.length === 363 || pool.length === 94 + 269) {
    const counts = new Map<string, number>();
    for (const q of api.queries) for (const r of index.rank(q.query)) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);
    hubs.push(...[...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([n, c]) => `${n}:${c}`));
  }
}
const stress = [...metaTools, ...schemaTools, ...apiTools, ...fixtureTools];
{
  const s = measure(stress as unknown[], single);
  const m = measure(stress as unknown[], multi);
  const index = s.index;
  cells.push(`${pct(s.topK)} / ${pct(m.topK)}`);
  const counts = new Map<string, number>();
  for (const q of single) for (const r of index.rank(q.query)) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);
  hubs.push('| stress', ...[...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([n, c]) => `${n}:${c}`));
}
// indexing time, 269 corpus tools, median of 15
const times: number[] = [];
for (let r = 0; r < 15; r++) {
  const t = performance.now();
  createToolSearch(schemaTools, options);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
const bigTimes: number[] = [];
const big = [...stress, ...stress];
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  createToolSearch(big as unknown[], options);
  bigTimes.push(performance.now() - t);
}
bigTimes.sort((a, b) => a - b);
console.log(`| ${process.argv[4] ?? JSON.stringify(options)} | ${cells.join(' | ')} | ${times[7]!.toFixed(1)} / ${bigTimes[2]!.toFixed(0)} ms | ${hubs.join(' ')} |`);
if (process.argv[6] === 'sizes') console.error(`stress pool ${stress.length} (fixtures ${fixtureTools.length}), big ${big.length}, single ${single.length}, multi ${multi.length}`);
