// Decision 0101, "A bonus for a word in two fields": for one sweep setting against today's ('{}'), the tune or test
// requests whose first result changed (right → wrong is "lost", wrong → right "won"), over 199 and 468 tools.
// `npx tsx --conditions=@ctxkit/source bench/scale-0101/top1-diff.ts '<options JSON>' [tune|test] [--list]`
import type { RetrievalQuery } from '../../src/bench/measure-retrieval.ts';
import { corpusPool, metaHalf, metaTools } from '../retrieval-pools.ts';
import { createSweepSearch, type SweepOptions } from './sweep-search.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as SweepOptions;
const { single, multi } = metaHalf(process.argv[3] ?? 'tune');
const list = process.argv.includes('--list');
const cases: [string, readonly unknown[], readonly RetrievalQuery[]][] = [
  ['M199 single', metaTools, single],
  ['M199 multi', metaTools, multi],
  ['M468 single', corpusPool, single],
  ['M468 multi', corpusPool, multi],
];
for (const [label, pool, queries] of cases) {
  const today = createSweepSearch(pool, {});
  const other = createSweepSearch(pool, options);
  let lost = 0;
  let won = 0;
  for (const query of queries) {
    const before = today.rank(query.query);
    const after = other.rank(query.query);
    const rightBefore = query.tools.includes(before[0]!);
    if (rightBefore === query.tools.includes(after[0]!)) continue;
    if (rightBefore) lost++;
    else won++;
    if (list)
      console.log(
        `${rightBefore ? 'lost' : 'won'} | ${label} | ${query.query.slice(0, 80)} | ${query.tools.join(', ')} | today ${before.slice(0, 3).join(', ')} | now ${after.slice(0, 3).join(', ')}`,
      );
  }
  console.log(`${label}: lost ${lost}, won ${won}`);
}
