import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
const metaTools = meta.tools.map((t: any) => ({ ...t, inputSchema: { type: 'object' } }));
const opt = JSON.parse(process.argv[2] ?? '{}');
for (const [label, small, big, qs] of [['api', apiTools, [...apiTools, ...schemaTools], api.queries], ['meta', metaTools, [...metaTools, ...schemaTools], single]] as const) {
  const a = createToolSearch(small as unknown[], opt), b = createToolSearch(big as unknown[], opt);
  const smallNames = new Set((small as any[]).map((t) => t.name));
  const counts = new Map<string, number>(); let lost = 0; const terms = new Map<string, number>();
  for (const q of qs as any[]) {
    const hitA = a.rank(q.query).some((r) => q.tools.includes(r.name));
    const rb = b.rank(q.query);
    if (!hitA || rb.some((r) => q.tools.includes(r.name))) continue;
    lost++;
    for (const r of rb) if (!smallNames.has(r.name)) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);
  }
  console.log(label, 'lost', lost, 'distinct distractors in their top-5', counts.size, [...counts].sort((x, y) => y[1] - x[1]).slice(0, 12).map(([n, c]) => `${n}:${c}`).join(' '));
}
