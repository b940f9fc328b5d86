// createToolSearch's word match before decision 0101 was adopted, kept for timing and comparison only:
// MiniSearch 7.2.0, every field its own BM25+ with its own IDF, the fields' scores added (MiniSearch's
// coordination factor undone), boosts name 1 / description 1 / parameters 0.05, k 2.2, b 0.7, d 0.5, and
// decision 0070's hub correction (hubPenalty 2). bench/scale-0101/scorer.ts with '{}' ranks the same.
import MiniSearch from 'minisearch';
import { searchTerms, splitWords } from '../../src/search-terms.ts';
import { hubExcess, penaliseHubs } from '../../src/tool-hubness.ts';
import { toolSearchText } from '../../src/tool-search.ts';

type Fields = { id: number; name: string; description: string; parameters: string };

/** The summed-field MiniSearch ranking of a pool, as createToolSearch ranked before decision 0101. */
export function createBefore0101Search(pool: readonly unknown[]) {
  const index = new MiniSearch<Fields>({
    fields: ['name', 'description', 'parameters'],
    tokenize: (text) => searchTerms(text),
    processTerm: (term) => term,
    searchOptions: { boost: { name: 1, description: 1, parameters: 0.05 }, bm25: { k: 2.2, b: 0.7, d: 0.5 }, prefix: false },
  });
  const names: string[] = [];
  const hubTexts: { position: number; text: string }[] = [];
  pool.forEach((tool, position) => {
    const text = toolSearchText(tool)!;
    names.push(text.name);
    hubTexts.push({ position, text: `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}` });
    index.add({ id: position, name: `${text.name} ${text.title}`, description: text.description, parameters: text.parameters });
  });
  const lexical = (query: string) => new Map(index.search(query).map((result) => [result.id as number, result.score / Math.max(1, result.queryTerms.length)]));
  const excess = hubExcess(hubTexts, lexical);
  const rank = (query: string, options: { limit?: number } = {}) =>
    [...penaliseHubs(lexical(query), excess, 2)]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, options.limit ?? 5)
      .map(([position, score]) => ({ index: position, name: names[position]!, score }));
  return { rank };
}
