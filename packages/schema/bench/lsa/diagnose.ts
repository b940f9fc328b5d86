// Decision 0106: what LSA alone finds on the stress pool (tune half, single-tool requests), and how many of the
// word match's misses it would reach. `npx tsx --conditions=@ctxkit/source bench/lsa/diagnose.ts '<LsaOptions>'`
import { searchTerms } from '../../src/search-terms.ts';
import { createToolSearch, toolSearchText } from '../../src/tool-search.ts';
import { metaHalf, stressPool } from '../retrieval-pools.ts';
import { createLsaModel } from './lsa-model.ts';

const options = JSON.parse(process.argv[2] ?? '{}');
const { single } = metaHalf(process.argv[3] ?? 'tune');
const model = createLsaModel(stressPool, options);
const names = stressPool.map((tool) => toolSearchText(tool)!.name);
const vectors = stressPool.map((tool) => {
  const text = toolSearchText(tool)!;
  return model.embed(`${text.name.replace(/_/g, ' ')} ${text.title}\n${text.description}`);
});
const unit = (vector: Float64Array | undefined) => {
  if (!vector) return undefined;
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
};
const units = vectors.map(unit);
const lexical = createToolSearch(stressPool);
const vocabulary = new Set(
  stressPool.flatMap((tool) => {
    const t = toolSearchText(tool)!;
    return searchTerms(`${t.name} ${t.title} ${t.description} ${t.parameters}`);
  }),
);
let lsaTop5 = 0;
let misses = 0;
let missesReached5 = 0;
let missesReached20 = 0;
let missesWithPoolWord = 0;
for (const query of single) {
  const q = unit(model.embed(query.query));
  const target = query.tools[0]!;
  const order = q ? units.map((vector, position) => [position, vector ? vector.reduce((sum, value, c) => sum + value * q[c]!, 0) : -2] as const).sort((a, b) => b[1] - a[1]) : [];
  const lsaRank = order.findIndex(([position]) => names[position] === target);
  if (lsaRank >= 0 && lsaRank < 5) lsaTop5++;
  const got = lexical.rank(query.query).map((match) => match.name);
  if (got.includes(target)) continue;
  misses++;
  const targetTool = stressPool[names.indexOf(target)]!;
  const t = toolSearchText(targetTool)!;
  const targetTerms = new Set(searchTerms(`${t.name} ${t.title} ${t.description} ${t.parameters}`));
  if (searchTerms(query.query).some((term) => vocabulary.has(term) && !targetTerms.has(term))) missesWithPoolWord++;
  if (lsaRank >= 0 && lsaRank < 5) missesReached5++;
  if (lsaRank >= 0 && lsaRank < 20) missesReached20++;
}
console.log(
  `LSA alone top-5 ${((lsaTop5 / single.length) * 100).toFixed(1)}%; word-match misses ${misses}, with a pool word the tool lacks ${missesWithPoolWord}, LSA top-5 ${missesReached5}, top-20 ${missesReached20}`,
);
