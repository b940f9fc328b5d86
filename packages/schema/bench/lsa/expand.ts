// Decision 0106 (experiment): query expansion with terms learned from the pool's own text. Each request term's
// nearest terms, by LSA (cosine of rows of UΣ, lsa-model.ts) or by co-occurrence in tools (normalised PMI), are
// searched at `beta` × their similarity and added to the request's BM25F score; the hub correction of decision
// 0070 is applied once to the sum, as createToolSearch does to the plain score. A stand-in for createToolSearch
// (its default word match, no semantic blend) that bench/retrieval-hubs.ts calls for an `expand` option.
import { createBm25fIndex } from '../../src/bm25f-index.ts';
import { defaultStopWords, searchTerms, splitWords } from '../../src/search-terms.ts';
import { hubExcess, penaliseHubs } from '../../src/tool-hubness.ts';
import type { ToolMatch, ToolSearch } from '../../src/tool-search.ts';
import { toolSearchText } from '../../src/tool-search.ts';
import { createLsaModel, type LsaOptions } from './lsa-model.ts';

export interface ExpandOptions {
  method: 'lsa' | 'pmi';
  /** Neighbours added per request term. @default 5 */
  neighbours?: number;
  /** Weight of a neighbour, times its similarity. @default 0.3 */
  beta?: number;
  /** Neighbours below this similarity (cosine, or NPMI) are not added. @default 0.3 */
  minSimilarity?: number;
  /** pmi: a neighbour must share at least this many tools with the term. @default 2 */
  minTogether?: number;
  /** pmi: only terms in at most this share of the tools expand or are added. @default 0.05 */
  maxShare?: number;
  lsa?: LsaOptions;
}

const terms = { stopWords: new Set(defaultStopWords), stem: true };

export function createExpandedSearch(pool: readonly unknown[], options: ExpandOptions): ToolSearch<unknown> {
  const names: string[] = [];
  const hubTexts: { position: number; text: string }[] = [];
  const surface = new Map<string, string>();
  const toolTerms: Set<string>[] = [];
  const documents = pool.map((tool, position) => {
    const text = toolSearchText(tool)!;
    names.push(text.name);
    const words = `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}`;
    hubTexts.push({ position, text: words });
    const own = new Set<string>();
    for (const word of splitWords(words)) {
      const [stem] = searchTerms(word, terms);
      if (stem === undefined) continue;
      own.add(stem);
      if (!surface.has(stem)) surface.set(stem, word);
    }
    toolTerms.push(own);
    return { id: position, fields: [`${text.name} ${text.title}`, text.description, text.parameters] as const };
  });
  const index = createBm25fIndex(documents, { weights: [3, 1, 0.05], k: 4, b: 0.7, d: 0.5, genericPrior: 0.3, prefixMinLength: 0, terms });
  const excess = hubExcess(hubTexts, index.scores);
  const count = options.neighbours ?? 5;
  const minimum = options.minSimilarity ?? 0.3;
  let neighbours: (term: string) => [string, number][];
  if (options.method === 'lsa') {
    const model = createLsaModel(pool, { toolVectors: 'fold', ...options.lsa });
    neighbours = (term) => model.neighbours(term, count);
  } else {
    const holders = new Map<string, number[]>();
    toolTerms.forEach((set, position) => {
      for (const term of set) {
        const list = holders.get(term);
        if (list) list.push(position);
        else holders.set(term, [position]);
      }
    });
    const n = pool.length;
    const maxTools = (options.maxShare ?? 0.05) * n;
    const minTogether = options.minTogether ?? 2;
    neighbours = (term) => {
      const mine = holders.get(term);
      if (mine === undefined || mine.length > maxTools) return [];
      const together = new Map<string, number>();
      for (const position of mine) for (const other of toolTerms[position]!) if (other !== term) together.set(other, (together.get(other) ?? 0) + 1);
      const scored: [string, number][] = [];
      for (const [other, both] of together) {
        const theirs = holders.get(other)!.length;
        if (both < minTogether || theirs > maxTools) continue;
        const joint = both / n;
        // Normalised PMI (Bouma 2009): log(p(a,b) / p(a)p(b)) / −log p(a,b), in −1..1.
        scored.push([other, Math.log(joint / ((mine.length / n) * (theirs / n))) / -Math.log(joint)]);
      }
      return scored.sort((a, b) => b[1] - a[1]).slice(0, count);
    };
  }
  const beta = options.beta ?? 0.3;
  const rank = (query: string): ToolMatch<unknown>[] => {
    const scores = index.scores(query);
    const own = new Set(searchTerms(query, terms));
    const added = new Map<string, number>();
    for (const term of own) {
      for (const [other, similarity] of neighbours(term)) {
        if (similarity < minimum || own.has(other) || !surface.has(other)) continue;
        added.set(other, Math.max(added.get(other) ?? 0, similarity));
      }
    }
    for (const [other, similarity] of added) {
      for (const [position, score] of index.scores(surface.get(other)!)) scores.set(position, (scores.get(position) ?? 0) + beta * similarity * score);
    }
    return [...penaliseHubs(scores, excess, 2)]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 5)
      .map(([position, score]) => ({ tool: pool[position], name: names[position]!, index: position, score }));
  };
  return { rank, search: (query: string) => rank(query).map((match) => match.tool) } as unknown as ToolSearch<unknown>;
}

export interface RerankOptions {
  lsa?: LsaOptions;
  /** Weight of the cosine (clipped at 0) against the word-match score scaled by its best. @default 0.3 */
  weight?: number;
  /** Only the word match's first `top` tools get the cosine; 0 gives it to every tool. @default 30 */
  top?: number;
}

/**
 * The same stand-in with an LSA re-rank instead of an expansion: score = word match ÷ its best + weight × the
 * LSA cosine (raw, clipped at 0, not stretched over the pool as semantic-blend.ts does), for the word match's
 * first `top` tools or for every tool.
 */
export function createRerankedSearch(pool: readonly unknown[], options: RerankOptions): ToolSearch<unknown> {
  const names: string[] = [];
  const hubTexts: { position: number; text: string }[] = [];
  const documents = pool.map((tool, position) => {
    const text = toolSearchText(tool)!;
    names.push(text.name);
    hubTexts.push({ position, text: `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}` });
    return { id: position, fields: [`${text.name} ${text.title}`, text.description, text.parameters] as const };
  });
  const index = createBm25fIndex(documents, { weights: [3, 1, 0.05], k: 4, b: 0.7, d: 0.5, genericPrior: 0.3, prefixMinLength: 0, terms });
  const excess = hubExcess(hubTexts, index.scores);
  const model = createLsaModel(pool, options.lsa);
  const unit = (vector: Float64Array | undefined) => {
    if (vector === undefined) return undefined;
    const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
    return norm > 0 ? vector.map((value) => value / norm) : undefined;
  };
  const vectors = hubTexts.map(({ text }) => unit(model.embed(text)));
  const weight = options.weight ?? 0.3;
  const top = options.top ?? 30;
  const rank = (query: string): ToolMatch<unknown>[] => {
    const lexical = [...penaliseHubs(index.scores(query), excess, 2)].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const best = lexical[0]?.[1] ?? 0;
    const q = unit(model.embed(query));
    const scores = new Map<number, number>(lexical.map(([position, score]) => [position, best > 0 ? score / best : 0]));
    if (q !== undefined) {
      const candidates = top > 0 ? lexical.slice(0, top).map(([position]) => position) : pool.map((_tool, position) => position);
      for (const position of candidates) {
        const vector = vectors[position];
        if (vector === undefined) continue;
        let dot = 0;
        for (let c = 0; c < vector.length; c++) dot += vector[c]! * q[c]!;
        if (dot > 0) scores.set(position, (scores.get(position) ?? 0) + weight * dot);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 5)
      .map(([position, score]) => ({ tool: pool[position], name: names[position]!, index: position, score }));
  };
  return { rank, search: (query: string) => rank(query).map((match) => match.tool) } as unknown as ToolSearch<unknown>;
}
