// Decision 0101's diagnosis: the single-tool requests of one MetaTool half whose tool is in the top 5
// over 468 tools (MetaTool + schema corpus) and not over the stress pool, and why by BM25's arithmetic.
// `npx tsx --conditions=@ctxkit/source bench/scale-0101/diagnosis.ts [tune|test]` prints the counts.
// Each field's share of a score comes from a plain MiniSearch with createToolSearch's settings before 0101, one field
// searched at a time (the hub correction left out of the shares, kept in the ranks).
import MiniSearch from 'minisearch';
import { searchTerms } from '../../src/search-terms.ts';
import { toolSearchText } from '../../src/tool-search.ts';
import { createBefore0101Search } from './before-0101.ts';
import { apiTools, corpusPool, metaHalf, stressPool } from '../retrieval-pools.ts';

interface FieldShare {
  name: number;
  description: number;
  parameters: number;
  terms: Map<string, Set<string>>;
}

const { single } = metaHalf(process.argv[2] ?? 'tune');
const texts = stressPool.map((tool) => toolSearchText(tool)!);
const perFieldIndex = (pool: readonly unknown[]) => {
  const index = new MiniSearch<{ id: number; name: string; description: string; parameters: string }>({
    fields: ['name', 'description', 'parameters'],
    tokenize: (text) => searchTerms(text),
    processTerm: (term) => term,
    searchOptions: { bm25: { k: 2.2, b: 0.7, d: 0.5 } },
  });
  pool.forEach((tool, id) => {
    const text = toolSearchText(tool)!;
    index.add({ id, name: `${text.name} ${text.title}`, description: text.description, parameters: text.parameters });
  });
  return index;
};
const stressFields = perFieldIndex(stressPool);
const corpusFields = perFieldIndex(corpusPool);
const shares = (index: MiniSearch<{ id: number; name: string; description: string; parameters: string }>, query: string) => {
  const out = new Map<number, FieldShare>();
  for (const [field, boost] of [
    ['name', 1],
    ['description', 1],
    ['parameters', 0.05],
  ] as const) {
    for (const result of index.search(query, { fields: [field] })) {
      const share = out.get(result.id) ?? { name: 0, description: 0, parameters: 0, terms: new Map() };
      share[field] = (boost * result.score) / Math.max(1, result.queryTerms.length);
      for (const term of Object.keys(result.match)) share.terms.set(term, (share.terms.get(term) ?? new Set()).add(field));
      out.set(result.id, share);
    }
  }
  return out;
};
const total = (share: FieldShare | undefined) => (share ? share.name + share.description + share.parameters : 0);
const nameTerms = (id: number) => searchTerms(`${texts[id]!.name} ${texts[id]!.title}`).length;
const counts: Record<string, number> = {};
const count = (key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};
// The ranking the diagnosis was made of: createToolSearch before 0101 adopted BM25F.
const corpusIndex = createBefore0101Search(corpusPool);
const stressIndex = createBefore0101Search(stressPool);
const ratios: number[] = [];
const goldLengths: number[] = [];
for (const query of single) {
  const gold = query.tools[0]!;
  const stressRank = stressIndex.rank(query.query, { limit: 5 });
  if (!corpusIndex.rank(query.query).some((match) => match.name === gold) || stressRank.some((match) => match.name === gold)) continue;
  count('requests lost (found over 468, not over the stress pool)');
  const goldId = texts.findIndex((text) => text.name === gold);
  const byTool = shares(stressFields, query.query);
  const goldShare = byTool.get(goldId) ?? { name: 0, description: 0, parameters: 0, terms: new Map() };
  const goldScore = total(goldShare);
  // The tool is at the same position in both pools (MetaTool comes first).
  ratios.push(goldScore / total(shares(corpusFields, query.query).get(goldId)));
  goldLengths.push(searchTerms(texts[goldId]!.description).length);
  if (goldShare.name === 0) count('requests whose tool matches no request word in its name');
  const sameTerms = new Map<string, number>();
  let nameDecides = false;
  for (const match of stressRank.filter((entry) => entry.index >= corpusPool.length)) {
    count(match.index < corpusPool.length + apiTools.length ? 'new tools in the top 5: APIBench' : 'new tools in the top 5: recorded MCP fixtures');
    const share = byTool.get(match.index)!;
    const twice = [...share.terms.values()].some((fields) => fields.has('name') && fields.has('description'));
    if (twice) count('new tools in the top 5 with a request word in both name and description');
    if (share.description + share.parameters < goldScore) {
      count('new tools in the top 5 that would rank below the tool without their name field');
      nameDecides = true;
    }
    if (share.terms.size === 1) count('new tools in the top 5 matching one request word only');
    if (share.terms.size <= goldShare.terms.size) count('new tools in the top 5 matching no more request words than the tool');
    if (nameTerms(match.index) <= 2) count('new tools in the top 5 with a name of one or two words');
    if (searchTerms(texts[match.index]!.description).length < 9) count('new tools in the top 5 with a description under 9 terms');
    const key = [...share.terms.keys()].sort().join(' ');
    sameTerms.set(key, (sameTerms.get(key) ?? 0) + 1);
  }
  if (nameDecides) count('requests where some new tool is above the tool only by its name field');
  if ([...sameTerms.values()].some((value) => value >= 2)) count('requests with two or more new tools matching the same request words');
}
console.log(JSON.stringify(counts, null, 1));
ratios.sort((a, b) => a - b);
goldLengths.sort((a, b) => a - b);
console.log(`the right tools' descriptions: median ${goldLengths[Math.floor(goldLengths.length / 2)]} terms, ${goldLengths[0]} to ${goldLengths.at(-1)}`);
console.log(`the tool's own score over the stress pool / over 468: median ${ratios[Math.floor(ratios.length / 2)]?.toFixed(2)}, ${ratios[0]?.toFixed(2)} to ${ratios.at(-1)?.toFixed(2)}`);
const stressCount = stressPool.length;
const idf = (matching: number) => Math.log(1 + (stressCount - matching + 0.5) / (matching + 0.5)).toFixed(2);
const postings = (stressFields as unknown as { _index: { get(term: string): Map<number, Map<number, number>> | undefined } })._index;
for (const word of ['find', 'search', 'server', 'app', 'convert', 'data', 'get']) {
  const term = searchTerms(word)[0]!;
  const [inName, inDescription] = [0, 1].map((field) => postings.get(term)?.get(field)?.size ?? 0);
  console.log(`${word}: ${inName} names (IDF ${idf(inName!)}), ${inDescription} descriptions (IDF ${idf(inDescription!)})`);
}
