// Scratch (decision 0097): how much of the vocabulary gap a table can reach at all. For every MetaTool
// single-tool request that shares no stemmed word with its tool's name and description, does any WordNet
// relative of a request word appear in that tool's text, and in how many of the other 198 tools' texts?
// `npx tsx --conditions=@ctxkit/source experiments/wordnet/gap-reach.ts experiments/wordnet/tables/*.json`
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchTerms } from '../../packages/schema/src/search-terms.ts';

const meta = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'corpus', 'tool-retrieval', 'metatool.json'), 'utf8')) as {
  tools: { name: string; description: string }[];
  queries: { query: string; tools: string[] }[];
};
const termsOf = new Map(meta.tools.map((tool) => [tool.name, new Set(searchTerms(`${tool.name} ${tool.description}`))]));
for (const file of process.argv.slice(2)) {
  const table = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  let gap = 0;
  let reached = 0;
  let others = 0;
  for (const query of meta.queries) {
    const own = termsOf.get(query.tools[0]!)!;
    const terms = searchTerms(query.query);
    if (terms.some((term) => own.has(term))) continue;
    gap++;
    const relatives = new Set(terms.flatMap((term) => (Object.hasOwn(table, term) ? table[term]!.split(' ') : [])));
    if ([...relatives].some((word) => own.has(word))) reached++;
    for (const [name, toolTerms] of termsOf) if (name !== query.tools[0] && [...relatives].some((word) => toolTerms.has(word))) others++;
  }
  console.log(
    `${file}: ${gap} requests share no word with their tool; reached ${reached} (${((100 * reached) / gap).toFixed(1)}%); other tools reached per request ${(others / gap).toFixed(1)} of 198`,
  );
}
