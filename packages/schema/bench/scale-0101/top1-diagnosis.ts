// Decision 0101, "Tuned again under BM25F": why top-1 fell. For one MetaTool half, the multi-tool (and single-tool)
// requests over 199 tools whose first result was right before 0101 (before-0101.ts) and is not now (or the reverse),
// with the first result before and now, which fields hold the request's words, and the counts by cause.
// `npx tsx --conditions=@ctxkit/source bench/scale-0101/top1-diagnosis.ts [tune|test] ['<SweepOptions JSON>'] [--list]`
import type { RetrievalQuery } from '../../src/bench/measure-retrieval.ts';
import { searchTerms } from '../../src/search-terms.ts';
import { toolSearchText } from '../../src/tool-search.ts';
import { metaHalf, metaTools } from '../retrieval-pools.ts';
import { createBefore0101Search } from './before-0101.ts';
import { createSweepSearch, type SweepOptions } from './sweep-search.ts';

const args = process.argv.slice(2).filter((arg) => arg !== '--list');
const list = process.argv.includes('--list');
const { single, multi } = metaHalf(args[0] ?? 'tune');
const now = createSweepSearch(metaTools, JSON.parse(args[1] ?? '{}') as SweepOptions);
const before = createBefore0101Search(metaTools);
const texts = new Map(metaTools.map((tool) => [toolSearchText(tool)!.name, toolSearchText(tool)!]));
const fieldTerms = (name: string) => {
  const text = texts.get(name)!;
  return { name: new Set(searchTerms(`${text.name} ${text.title}`)), description: new Set(searchTerms(text.description)) };
};
// The request words a tool holds, marked n (name only), d (description only), nd (both).
const where = (query: string, name: string) => {
  const fields = fieldTerms(name);
  const marks: string[] = [];
  for (const term of new Set(searchTerms(query))) {
    const mark = `${fields.name.has(term) ? 'n' : ''}${fields.description.has(term) ? 'd' : ''}`;
    if (mark) marks.push(`${term}:${mark}`);
  }
  return marks.join(' ');
};
const nameWords = (query: string, name: string) => {
  const fields = fieldTerms(name);
  return [...new Set(searchTerms(query))].filter((term) => fields.name.has(term)).length;
};

function compare(kind: string, queries: readonly RetrievalQuery[]) {
  const counts = { lost: 0, won: 0, lostToNameWord: 0, lostRightHasNoNameWord: 0, lostRightHasBoth: 0, lostWinnerInTop5: 0 };
  for (const query of queries) {
    const was = before.rank(query.query)[0]?.name;
    const got = now.rank(query.query);
    const wasRight = was !== undefined && query.tools.includes(was);
    const isRight = got[0] !== undefined && query.tools.includes(got[0]);
    if (wasRight === isRight) continue;
    if (isRight) counts.won++;
    else {
      counts.lost++;
      const winner = got[0]!;
      const right = query.tools.filter((name) => texts.has(name));
      if (nameWords(query.query, winner) > 0) counts.lostToNameWord++;
      if (right.every((name) => nameWords(query.query, name) === 0)) counts.lostRightHasNoNameWord++;
      if (right.some((name) => where(query.query, name).includes(':nd'))) counts.lostRightHasBoth++;
      if (got.includes(was!)) counts.lostWinnerInTop5++;
    }
    if (list) {
      console.log(`${isRight ? 'WON ' : 'LOST'} [${kind}] ${query.query}`);
      console.log(`     needs ${query.tools.map((name) => `${name} (${where(query.query, name)})`).join(', ')}`);
      console.log(`     before ${was} (${where(query.query, was!)}); now ${got[0]} (${where(query.query, got[0]!)}); top 5 now ${got.join(', ')}`);
    }
  }
  console.log(
    `${kind}: ${queries.length} requests; top-1 lost ${counts.lost}, won ${counts.won}; of the lost: the new first holds a request word in its name ${counts.lostToNameWord}, no needed tool holds one in its name ${counts.lostRightHasNoNameWord}, a needed tool holds a word in both name and description ${counts.lostRightHasBoth}, the old first still in the top 5 ${counts.lostWinnerInTop5}`,
  );
}
compare('multi', multi);
compare('single', single);
