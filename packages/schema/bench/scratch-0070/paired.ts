import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureRetrieval } from '../../src/bench/measure-retrieval.ts';
import { createToolSearch } from '../../src/tool-search.ts';
const root = join(import.meta.dirname, '..', '..', '..', '..');
const read = (p: string) => JSON.parse(readFileSync(p, 'utf8'));
const schemaDir = join(root, 'corpus', 'schemas');
const schemaTools = readdirSync(schemaDir).filter((f) => f.endsWith('.json')).sort().flatMap((f) => read(join(schemaDir, f)) as unknown[]);
const api = read(join(root, 'corpus/tool-retrieval/apibench-torchhub.json'));
const apiTools = api.tools.map((t: any) => ({ name: t.name, title: t.api_name, description: `${t.domain}. ${t.functionality}. ${t.description}`, inputSchema: { type: 'object' } }));
const meta = read(join(root, 'corpus/tool-retrieval/metatool.json'));
const pos = new Map(meta.tools.map((t: any, i: number) => [t.name, i]));
const single = meta.queries.filter((q: any) => (pos.get(q.tools[0]) as number) % 2 === 0);
const multi = meta.multiToolQueries.filter((_q: any, i: number) => i % 2 === 0);
const metaTools = meta.tools.map((t: any) => ({ ...t, inputSchema: { type: 'object' } }));
const opt = JSON.parse(process.argv[2]!);
const out: string[] = [];
for (const [label, pool, qs] of [['199s', metaTools, single], ['199m', metaTools, multi], ['468s', [...metaTools, ...schemaTools], single], ['468m', [...metaTools, ...schemaTools], multi], ['363', [...apiTools, ...schemaTools], api.queries], ['562', [...apiTools, ...schemaTools, ...metaTools], api.queries]] as const) {
  const a = new Set(measureRetrieval(createToolSearch(pool as unknown[]), qs).misses.map((m) => m.query));
  const b = new Set(measureRetrieval(createToolSearch(pool as unknown[], opt), qs).misses.map((m) => m.query));
  const won = [...a].filter((q) => !b.has(q)).length;
  const lost = [...b].filter((q) => !a.has(q)).length;
  out.push(`${label} +${won}/-${lost}`);
}
console.log(process.argv[2], out.join('  '));
