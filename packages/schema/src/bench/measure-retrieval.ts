import { CtxkitError } from '@ctxkit/core';
import type { ToolSearch } from '../tool-search.ts';

/** A request and the tools it needs, by name (MetaTool's `{ query, tools }`). */
export interface RetrievalQuery {
  query: string;
  tools: readonly string[];
}

/** How often the needed tools came back (fractions of the requests, 0 to 1). */
export interface RetrievalScore {
  queries: number;
  /** The first result is one of the needed tools. */
  top1: number;
  /** One of the needed tools is in the first `k` results. */
  topK: number;
  /** Every needed tool is in the first `k` results (differs from `topK` for multi-tool requests). */
  allInTopK: number;
  k: number;
  /** The requests whose needed tools were all missing from the first `k`. */
  misses: { query: string; expected: readonly string[]; got: string[] }[];
}

/**
 * Measures a tool index on requests with known answers: top-1 and top-k hit rates.
 * @throws CtxkitError INVALID_ARGUMENT for a query without a text or a list of tool names
 * @example
 * ```ts
 * const score = measureRetrieval(createToolSearch(tools), queries, { k: 5 });
 * console.log(`top-1 ${score.top1}, top-5 ${score.topK}`);
 * ```
 */
export function measureRetrieval(index: ToolSearch<unknown>, queries: readonly RetrievalQuery[], options: { k?: number } = {}): RetrievalScore {
  const k = options.k ?? 5;
  let top1 = 0;
  let topK = 0;
  let allInTopK = 0;
  const misses: RetrievalScore['misses'] = [];
  queries.forEach((entry, position) => {
    if (typeof entry?.query !== 'string' || !Array.isArray(entry.tools)) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: `queries[${position}] needs { query: string, tools: string[] }` });
    }
    const got = index.rank(entry.query, { limit: k }).map((match) => match.name);
    if (got[0] !== undefined && entry.tools.includes(got[0])) top1++;
    if (entry.tools.some((name) => got.includes(name))) topK++;
    else misses.push({ query: entry.query, expected: entry.tools, got });
    if (entry.tools.every((name) => got.includes(name))) allInTopK++;
  });
  const share = (count: number) => (queries.length === 0 ? 0 : count / queries.length);
  return { queries: queries.length, top1: share(top1), topK: share(topK), allInTopK: share(allInTopK), k, misses };
}
