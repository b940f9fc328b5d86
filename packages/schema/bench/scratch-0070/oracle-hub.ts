import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureRetrieval } from '../../src/bench/measure-retrieval.ts';
import { createToolSearch, toolSearchText } from '../../src/tool-search.ts';
const root = join(import.meta.dirname, '..', '..', '..', '..');
const read = (p: string) => JSON.parse(readFileSync(p, 'utf8'));
const schemaDir = join(root, 'corpus', 'schemas');
const schemaTools = readdirSync(schemaDir).filter((f) => f.endsWith('.json')).sort().flatMap((f) => read(join(schemaDir, f)) as unknown[]);
const api = read(join(root, 'corpus/tool-retrieval/apibench-torchhub.json'));
const apiTools = api.tools.map((t: any) => ({ name: t.name, title: t.api_name, description: `${t.domain}. ${t.functionality}. ${t.description}`, inputSchema: { type: 'object' } }));
const meta = read(join(root, 'corpus/tool-retrieval/metatool.json'));
const pos = new Map(meta.tools.map((t: any, i: number) => [t.name, i]));
const single = meta.queries.filter((q: any) => (pos.get(q.tools[0]) as number) % 2 === 0);
const metaTools = meta.tools.map((t: any) => ({ ...t, inputSchema: { type: 'object' } }));
const hubs = new Set(['write_todos', 'copilot_getVSCodeAPI']);
const noHubs = schemaTools.filter((t) => !hubs.has(toolSearchText(t)!.name));
for (const [label, pool, qs] of [['api 363', [...apiTools, ...schemaTools], api.queries], ['api 363 minus 2 hubs', [...apiTools, ...noHubs], api.queries], ['api 94', apiTools, api.queries], ['meta 468', [...metaTools, ...schemaTools], single], ['meta 468 minus 2 hubs', [...metaTools, ...noHubs], single], ['meta 199', metaTools, single]] as const) {
  const index = createToolSearch(pool as unknown[]);
  console.log(label, (pool as unknown[]).length, 'top5', (measureRetrieval(index, qs).topK * 100).toFixed(1), 'top7', (measureRetrieval(index, qs, { k: 7 }).topK * 100).toFixed(1));
}
