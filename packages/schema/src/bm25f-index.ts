import { type SearchTermsOptions, searchTerms } from './search-terms.ts';

/** The three fields of a tool, in this order: name and title, description, parameter text. */
export type Bm25fFields = readonly [name: string, description: string, parameters: string];

/** One tool to index: its position in the caller's list and its fields' text. */
export interface Bm25fDocument {
  id: number;
  fields: Bm25fFields;
}

/** The constants of {@link createBm25fIndex}; `createToolSearch` fills them from its options. */
export interface Bm25fSettings {
  /** Weight of one occurrence in each field (name, description, parameters), applied to the term frequency. */
  weights: readonly [number, number, number];
  /** Saturation of the weighted frequency, once per term over all fields. */
  k: number;
  /** Length normalisation of every field, against that field's average length. */
  b: number;
  /** BM25+ floor: added once for any matched term. */
  d: number;
  /** Power of the prior against tools made of generic words; 0 turns it off. */
  genericPrior: number;
  /** A query term of at least this many letters also matches the terms it starts; 0 turns it off. */
  prefixMinLength: number;
  terms: SearchTermsOptions;
}

/** A word-match index over tools: scores by position, best not yet sorted. */
export interface Bm25fIndex {
  readonly size: number;
  /** The BM25F score of every tool that matches a query term, times the tool's generic-word prior. */
  scores(query: string): Map<number, number>;
}

// A term's weighted, length-normalised frequency in one tool (summed over its fields).
interface Posting {
  document: number;
  weighted: number;
}

interface Analysed {
  frequencies: Map<string, number>[];
  lengths: number[];
}

// A prefix match counts less, and less the more letters it adds (MiniSearch's decay, kept from decision 0020).
const prefixWeight = 0.3;

function analyse(documents: readonly Bm25fDocument[], terms: SearchTermsOptions): Analysed[] {
  return documents.map(({ fields }) => {
    const frequencies = fields.map((text) => {
      const counts = new Map<string, number>();
      for (const term of searchTerms(text, terms)) counts.set(term, (counts.get(term) ?? 0) + 1);
      return counts;
    });
    // A field's length is its number of distinct terms, as MiniSearch counted it.
    return { frequencies, lengths: frequencies.map((counts) => counts.size) };
  });
}

function inverseFrequencies(analysed: readonly Analysed[]): Map<string, number> {
  const documentFrequency = new Map<string, number>();
  for (const { frequencies } of analysed) {
    const distinct = new Set(frequencies.flatMap((counts) => [...counts.keys()]));
    for (const term of distinct) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const count = analysed.length;
  const idf = new Map<string, number>();
  for (const [term, matching] of documentFrequency) idf.set(term, Math.log(1 + (count - matching + 0.5) / (matching + 0.5)));
  return idf;
}

function buildPostings(analysed: readonly Analysed[], settings: Bm25fSettings): Map<string, Posting[]> {
  const count = analysed.length;
  const averages = [0, 1, 2].map((field) => analysed.reduce((sum, tool) => sum + tool.lengths[field]!, 0) / count);
  const { b, weights } = settings;
  const postings = new Map<string, Posting[]>();
  analysed.forEach(({ frequencies, lengths }, document) => {
    const norms = lengths.map((length, field) => 1 - b + (b * length) / (averages[field]! || 1));
    const distinct = new Set(frequencies.flatMap((counts) => [...counts.keys()]));
    for (const term of distinct) {
      let weighted = 0;
      for (let field = 0; field < 3; field++) weighted += (weights[field]! * (frequencies[field]!.get(term) ?? 0)) / norms[field]!;
      // A term found only in a field weighted 0 neither scores nor makes the tool a result.
      if (weighted === 0) continue;
      const list = postings.get(term);
      if (list) list.push({ document, weighted });
      else postings.set(term, [{ document, weighted }]);
    }
  });
  return postings;
}

/**
 * Each tool's prior: (the mean IDF of its name and description terms / the pool's mean) clamped to
 * 0.5–1.5, to the power `genericPrior`. A tool made of words every other tool uses (`find`, `list`,
 * `server`) is held back a little; one with rare words is lifted (decision 0101).
 */
function genericPriors(analysed: readonly Analysed[], idf: ReadonlyMap<string, number>, power: number): number[] {
  if (power === 0) return analysed.map(() => 1);
  const means = analysed.map(({ frequencies }) => {
    const terms = new Set([...frequencies[0]!.keys(), ...frequencies[1]!.keys()]);
    let sum = 0;
    for (const term of terms) sum += idf.get(term)!;
    return terms.size === 0 ? 0 : sum / terms.size;
  });
  const poolMean = means.reduce((sum, value) => sum + value, 0) / analysed.length;
  // A pool whose names and descriptions are all stop words has no mean to compare with: no prior, rather than NaN scores.
  if (!(poolMean > 0)) return analysed.map(() => 1);
  return means.map((mean) => Math.min(1.5, Math.max(0.5, mean / poolMean)) ** power);
}

/** The vocabulary terms a query term starts, other than itself, with their weights. */
function prefixExpansions(vocabulary: readonly string[], term: string): [string, number][] {
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (vocabulary[middle]! < term) low = middle + 1;
    else high = middle;
  }
  const found: [string, number][] = [];
  for (let at = low; at < vocabulary.length && vocabulary[at]!.startsWith(term); at++) {
    const longer = vocabulary[at]!;
    if (longer !== term) found.push([longer, (prefixWeight * longer.length) / (longer.length + 0.3 * (longer.length - term.length))]);
  }
  return found;
}

/**
 * BM25F (Robertson, Zaragoza and Taylor, CIKM 2004) over tool fields: per term, each field's frequency
 * × its weight ÷ its length normalisation, added over the fields, then saturated once with `k` and
 * multiplied by one IDF over whole tools, plus the BM25+ floor `d`. A word in both a tool's name and
 * its description counts once, more strongly, not twice (decision 0101).
 */
export function createBm25fIndex(documents: readonly Bm25fDocument[], settings: Bm25fSettings): Bm25fIndex {
  const analysed = analyse(documents, settings.terms);
  const idf = inverseFrequencies(analysed);
  const postings = buildPostings(analysed, settings);
  const priors = genericPriors(analysed, idf, settings.genericPrior);
  const vocabulary = settings.prefixMinLength > 0 ? [...postings.keys()].sort() : [];
  const { k, d } = settings;
  const add = (scores: Map<number, number>, term: string, weight: number) => {
    const termIdf = idf.get(term) ?? 0;
    for (const { document, weighted } of postings.get(term) ?? []) {
      const score = weight * termIdf * (d + (weighted * (k + 1)) / (weighted + k));
      scores.set(document, (scores.get(document) ?? 0) + score);
    }
  };
  return {
    size: documents.length,
    scores: (query) => {
      const byDocument = new Map<number, number>();
      for (const term of searchTerms(query, settings.terms)) {
        add(byDocument, term, 1);
        if (settings.prefixMinLength > 0 && term.length >= settings.prefixMinLength) {
          for (const [longer, weight] of prefixExpansions(vocabulary, term)) add(byDocument, longer, weight);
        }
      }
      const byId = new Map<number, number>();
      for (const [document, score] of byDocument) byId.set(documents[document]!.id, score * priors[document]!);
      return byId;
    },
  };
}
