// Scratch (decision 0097): requests won and lost by an option set against the defaults, MetaTool single-tool
// requests of one half, and how many of them share no stemmed word with their tool's name and description.
// `npx tsx --conditions=@ctxkit/source bench/compare-expansion.ts '<options JSON>' [tune|test] [--show N]`
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RetrievalQuery } from '../src/bench/measure-retrieval.ts';
import { searchTerms } from '../src/search-terms.ts';
import { createToolSearch } from '../src/tool-search.ts';
import { withExpansion } from './expansion-option.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const meta = read(join(root, 'corpus', 'tool-retrieval', 'metatool.json')) as { tools: { name: string; description: string }[]; queries: RetrievalQuery[] };
const schemaTools = readdirSync(join(root, 'corpus', 'schemas'))
  .filter((file) => file.endsWith('.json'))
  .sort()
  .flatMap((file) => read(join(root, 'corpus', 'schemas', file)) as unknown[]);
const options = withExpansion(JSON.parse(process.argv[2] ?? '{}'));
const half = process.argv[3] ?? 'tune';
const show = process.argv.includes('--show') ? Number(process.argv[process.argv.indexOf('--show') + 1]) : 0;
const position = new Map(meta.tools.map((tool, index) => [tool.name, index]));
const single = meta.queries.filter((query) => (position.get(query.tools[0]!)! % 2 === 0) === (half === 'tune'));
const tools = meta.tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' } }));
const toolTerms = new Map(meta.tools.map((tool) => [tool.name, new Set(searchTerms(`${tool.name} ${tool.description}`))]));
const sharesWord = (query: RetrievalQuery) => searchTerms(query.query).some((term) => toolTerms.get(query.tools[0]!)!.has(term));
for (const pool of [tools, [...tools, ...schemaTools]]) {
  const before = createToolSearch(pool as unknown[]);
  const after = createToolSearch(pool as unknown[], options);
  const found = (index: typeof before, query: RetrievalQuery) => index.rank(query.query).some((match) => query.tools.includes(match.name));
  let won = 0;
  let lost = 0;
  let noWord = 0;
  let noWordBefore = 0;
  let noWordAfter = 0;
  const shown: string[] = [];
  for (const query of single) {
    const was = found(before, query);
    const is = found(after, query);
    if (!sharesWord(query)) {
      noWord++;
      if (was) noWordBefore++;
      if (is) noWordAfter++;
    }
    if (was !== is) {
      if (is) won++;
      else lost++;
      if (shown.length < show) shown.push(`  ${is ? 'WON ' : 'LOST'} ${JSON.stringify(query.query)} -> ${query.tools[0]}${sharesWord(query) ? '' : ' (no shared word)'}`);
    }
  }
  console.log(`${half} ${pool.length} tools: ${single.length} single requests, won ${won}, lost ${lost}; sharing no word with the tool: ${noWord}, found ${noWordBefore} -> ${noWordAfter}`);
  if (shown.length > 0) console.log(shown.join('\n'));
}
