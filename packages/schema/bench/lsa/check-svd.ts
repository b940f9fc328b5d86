// Decision 0106: a check of lsa-model.ts. With k at the pool's rank the latent space loses nothing of a tool, so the
// dot product of a request's and a tool's LSA vectors (Σ power 1: Uᵀq · Uᵀd) must equal the dot product of their
// weighted term vectors (q · d, d a column of the matrix): the SVD, the projection and the fold-in are right together.
// (Cosines differ: Uᵀq drops the part of q outside the tools' span, so only the dot products are compared.) Prints the largest difference over MetaTool's 199 tools
// against a few requests, and how close k 128 and 2 power iterations come to k at rank on the stress pool's
// singular values (the first 8 and the 128th, against 4 power iterations).
// `npx tsx --conditions=@ctxkit/source bench/lsa/check-svd.ts`
import { searchTerms, splitWords } from '../../src/search-terms.ts';
import { toolSearchText } from '../../src/tool-search.ts';
import { meta, metaTools, stressPool } from '../retrieval-pools.ts';
import { createLsaModel } from './lsa-model.ts';

// A tool with no index term (its name is a stop word) adds an empty column: the matrix's rank is at most n − 1, the
// largest k the model keeps, so k 1000 (capped at n − 1) is at rank.
const full = createLsaModel([...metaTools, { name: 'the', description: '', inputSchema: { type: 'object' } }], { k: 1000, sigmaPower: 1, fields: [1, 1, 0], minTools: 1, toolVectors: 'fold' });
const texts = metaTools.map((tool) => {
  const text = toolSearchText(tool)!;
  return `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}`;
});
// The same weighting as lsa-model.ts, by hand: log(1 + tf) × log(N / df), unit length.
const documentFrequency = new Map<string, number>();
for (const text of texts) for (const term of new Set(searchTerms(text))) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
const weighted = (text: string) => {
  const counts = new Map<string, number>();
  for (const term of searchTerms(text)) if (documentFrequency.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
  const vector = new Map([...counts].map(([term, count]) => [term, Math.log(1 + count) * Math.log(texts.length / documentFrequency.get(term)!)] as const));
  const norm = Math.sqrt([...vector.values()].reduce((sum, value) => sum + value * value, 0)) || 1;
  for (const [term, value] of vector) vector.set(term, value / norm);
  return vector;
};
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  for (let c = 0; c < a.length; c++) sum += a[c]! * b[c]!;
  return sum;
};
let worst = 0;
for (const query of meta.queries.slice(0, 20)) {
  const q = weighted(query.query);
  const qv = full.embed(query.query);
  texts.forEach((text) => {
    const d = weighted(text);
    let exact = 0;
    for (const [term, value] of q) exact += value * (d.get(term) ?? 0);
    const latent = qv ? dot(qv, full.embed(text)!) : 0;
    worst = Math.max(worst, Math.abs(exact - latent));
  });
}
console.log(`k at rank (${full.k}) over 199 tools and an empty one: largest |q · d − Uᵀq · Uᵀd| over 20 requests × 199 tools = ${worst.toExponential(2)}`);
const two = createLsaModel(stressPool, { k: 128 });
const four = createLsaModel(stressPool, { k: 128, iterations: 4 });
const show = (model: typeof two) => [...model.sigma.slice(0, 8), model.sigma[127]!].map((value) => value.toFixed(4)).join(' ');
console.log(`stress pool σ, 2 iterations: ${show(two)}\nstress pool σ, 4 iterations: ${show(four)}`);
