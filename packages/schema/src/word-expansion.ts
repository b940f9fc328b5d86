import type MiniSearch from 'minisearch';

/** Related words for search terms (stem -> space-separated stems), e.g. a WordNet table. */
export type WordExpansionTable = Readonly<Record<string, string>>;

/** Search terms widened with related words, for requests worded differently from the tool. */
export interface ToolSearchExpansion {
  table: WordExpansionTable;
  /** Weight of a related word added to the request, against 1 for its own words. @default 0.3 */
  queryWeight?: number;
  /** Weight of the related words added to each tool's name and description. @default 0 */
  indexWeight?: number;
  /** Divide a word's weight among its relatives. @default false */
  split?: boolean;
}

export function relatives(table: WordExpansionTable, term: string): string[] {
  const value = Object.hasOwn(table, term) ? table[term] : undefined;
  return value ? value.split(' ') : [];
}

/** The related terms of a tool's own terms that it does not already contain, each once. */
export function expansionText(table: WordExpansionTable, terms: readonly string[]): string {
  const own = new Set(terms);
  const added = new Set<string>();
  for (const term of own) for (const other of relatives(table, term)) if (!own.has(other)) added.add(other);
  return [...added].join(' ');
}

/** Weighted related terms of a request's terms, the request's own terms left out. */
export function expansionWeights(expansion: ToolSearchExpansion, terms: readonly string[]): Map<string, number> {
  const own = new Set(terms);
  const weight = expansion.queryWeight ?? 0.3;
  const weights = new Map<string, number>();
  if (weight <= 0) return weights;
  for (const term of own) {
    const others = relatives(expansion.table, term).filter((other) => !own.has(other));
    const each = expansion.split ? weight / Math.max(1, others.length) : weight;
    for (const other of others) weights.set(other, Math.max(weights.get(other) ?? 0, each));
  }
  return weights;
}

/** Summed BM25 of the weighted related terms, by tool position (MiniSearch's coordination factor undone). */
export function expansionScores<T>(index: MiniSearch<T>, weights: ReadonlyMap<string, number>): Map<number, number> {
  if (weights.size === 0) return new Map();
  const results = index.search([...weights.keys()].join(' '), {
    tokenize: (text) => text.split(' '),
    boostTerm: (term) => weights.get(term) ?? 0,
  });
  return new Map(results.map((result) => [result.id as number, result.score / Math.max(1, result.queryTerms.length)]));
}
