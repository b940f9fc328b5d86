import { CtxkitError } from '@ctxkit/core';
import MiniSearch from 'minisearch';
import { isRecord } from './schema-keywords.ts';
import { defaultStopWords, type SearchTermsOptions, searchTerms, splitWords } from './search-terms.ts';
import { blendScores } from './semantic-blend.ts';
import { createSemanticIndex, type SemanticIndex, type ToolEmbeddingInput, type ToolSearchSemantic } from './tool-embeddings.ts';
import { type HubBankText, hubExcess, penaliseHubs } from './tool-hubness.ts';
import { toolParts, toolShape } from './tool-shapes.ts';

/** Relative weight of each part of a tool in the ranking. */
export interface ToolSearchBoost {
  /** The tool's name (split into words) and its `title`. @default 1 */
  name?: number;
  /** The tool's description. @default 1 */
  description?: number;
  /** Parameter names and parameter descriptions, nested ones included. @default 0.05 */
  parameters?: number;
}

/** Options for {@link createToolSearch}. */
export interface ToolSearchOptions {
  /** Field weights; the defaults were chosen on half of the MetaTool requests (docs/decisions/0020). */
  boost?: ToolSearchBoost;
  /** Words never indexed or searched for; `[]` keeps every word. @default defaultStopWords */
  stopWords?: readonly string[];
  /** Porter stemming, so `searching` finds `search`. @default true */
  stem?: boolean;
  /**
   * BM25 parameters: `k` term-frequency saturation, `b` length normalisation, `d` the BM25+ floor
   * for any match. @default { k: 2.2, b: 0.7, d: 0.5 }
   */
  bm25?: { k?: number; b?: number; d?: number };
  /** Also match words that start with a query word of at least this many letters (`0` turns it off). @default 0 */
  prefixMinLength?: number;
  /** Results of one search when `search` is not given a limit. @default 5 */
  defaultLimit?: number;
  /**
   * How strongly "hub" tools are held back: a tool whose text matches almost any request (a
   * 5,000-character description that mentions files, tasks, images and users) would otherwise take
   * one of the first places for every request in a large pool. At indexing, each tool is scored
   * against up to 128 short pseudo-queries made of the other tools' names and descriptions; the
   * tenth of the pool with the highest mean score has its excess over the rest taken off every
   * search's score, this many times. Ranking among the other nine tenths is unchanged, and pools of
   * fewer than 32 tools are left as they are. Costs 128 searches at indexing (269 tools: about 60 ms
   * instead of 13; 1,600 tools: about 290 ms instead of 90). `0` turns it off.
   * @default 2 (decision 0070)
   */
  hubPenalty?: number;
  /**
   * A meaning signal to blend with the word match, for requests that share no word with the tool
   * they need: `embed` (or `embedMany`) turns text into vectors, at once (static word vectors) or as a
   * promise (an embedding API, a model); tools are embedded once, each request on every search. With
   * a promise, await `index.ready` and search with `searchAsync`. Nothing is downloaded by this
   * package. @default none (word match only)
   */
  semantic?: ToolSearchSemantic;
}

export type { ToolSearchSemantic };

/** Options of one search. */
export interface ToolSearchQueryOptions {
  /** Results to return. @default the index's `defaultLimit` (5) */
  limit?: number;
  /**
   * The query's vector, computed by the caller (with the same model as the tools): the embedder is
   * not called for this search. Needs the `semantic` option, and its tools embedded (`await index.ready`).
   */
  queryVector?: ArrayLike<number>;
}

/** One ranked result of {@link ToolSearch.rank}. */
export interface ToolMatch<Tool> {
  /** The tool, exactly as it was given. */
  tool: Tool;
  name: string;
  /** Position in the list given to `createToolSearch`. */
  index: number;
  score: number;
}

/** A full-text index over tool definitions. */
export interface ToolSearch<Tool> {
  /**
   * The matching tools, best first, in the shape they were given.
   * @throws CtxkitError INVALID_ARGUMENT when `semantic.embed` answers with a promise and no `queryVector` is given (use `searchAsync`)
   */
  search(query: string, options?: ToolSearchQueryOptions): Tool[];
  /** The same, with names, positions and scores. */
  rank(query: string, options?: ToolSearchQueryOptions): ToolMatch<Tool>[];
  /**
   * `search` for any embedder, synchronous or not: waits for the tools' vectors, embeds the query, blends.
   * Ranks exactly as `search` does given the same vectors. Without `semantic` it is `search` in a promise.
   * @throws ToolEmbeddingError (as a rejection) when the embedder fails on a tool or on the query
   */
  searchAsync(query: string, options?: ToolSearchQueryOptions): Promise<Tool[]>;
  /** `rank` for any embedder; see {@link ToolSearch.searchAsync}. */
  rankAsync(query: string, options?: ToolSearchQueryOptions): Promise<ToolMatch<Tool>[]>;
  /**
   * Settles once every tool has its vector: at once without `semantic` or with a synchronous embedder;
   * rejects with the {@link ToolEmbeddingError} that stopped the indexing.
   */
  readonly ready: Promise<void>;
  /** The tool of that name, or undefined. */
  get(name: string): Tool | undefined;
  /** Number of tools indexed. */
  readonly size: number;
}

/** The searchable text of a tool: its name and title, description, and parameter names and descriptions. */
export interface ToolSearchText {
  name: string;
  title: string;
  description: string;
  parameters: string;
}

function collectParameters(schema: unknown, out: string[]): void {
  // Iterative walk with a node budget: schemas come from outside, and search text needs no exactness.
  const stack: unknown[] = [schema];
  let budget = 500;
  while (stack.length > 0 && budget-- > 0) {
    const node = stack.pop();
    if (!isRecord(node)) continue;
    if (isRecord(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        out.push(name);
        if (isRecord(property) && typeof property.description === 'string') out.push(property.description);
        stack.push(property);
      }
    }
    for (const keyword of ['items', 'additionalProperties'] as const) stack.push(node[keyword]);
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(node[keyword])) stack.push(...(node[keyword] as unknown[]));
  }
}

/**
 * The text a tool is found by, or undefined for something that is not a named tool (a hosted tool
 * without a name is not searchable).
 */
export function toolSearchText(tool: unknown): ToolSearchText | undefined {
  const shape = toolShape(tool);
  if (shape === undefined || shape === 'provider-defined' || !isRecord(tool)) return undefined;
  const parts = toolParts(tool, shape);
  if (typeof parts.name !== 'string') return undefined;
  const holder = shape === 'openai' ? (tool.function as Record<string, unknown>) : tool;
  const annotations = isRecord(holder.annotations) ? holder.annotations : {};
  const title = [holder.title, annotations.title].filter((value): value is string => typeof value === 'string').join(' ');
  const parameters: string[] = [];
  if (parts.hasSchema) collectParameters(parts.schema, parameters);
  return { name: parts.name, title, description: typeof parts.description === 'string' ? parts.description : '', parameters: parameters.join('\n') };
}

function invalid(message: string): never {
  throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message });
}

function checkLimit(limit: unknown, where: string): number {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) invalid(`${where}: limit must be a whole number of 1 or more, got ${String(limit)}`);
  return limit;
}

type IndexedTool = { id: number; name: string; description: string; parameters: string };

/** The MiniSearch index with our tokenizer, field boosts and BM25 constants (decision 0020). */
function createLexicalIndex(options: ToolSearchOptions): MiniSearch<IndexedTool> {
  const termOptions: SearchTermsOptions = { stopWords: new Set(options.stopWords ?? defaultStopWords), stem: options.stem ?? true };
  const tokenize = (text: string) => searchTerms(text, termOptions);
  const boost = { name: 1, description: 1, parameters: 0.05, ...options.boost };
  const prefixMinLength = options.prefixMinLength ?? 0;
  return new MiniSearch<IndexedTool>({
    fields: ['name', 'description', 'parameters'],
    tokenize,
    // Terms arrive lower-cased, filtered and stemmed from tokenize.
    processTerm: (term) => term,
    searchOptions: {
      boost: { name: boost.name, description: boost.description, parameters: boost.parameters },
      bm25: { k: 2.2, b: 0.7, d: 0.5, ...options.bm25 },
      prefix: prefixMinLength > 0 ? (term) => term.length >= prefixMinLength : false,
      weights: { prefix: 0.3, fuzzy: 0.3 },
    },
  });
}

/** Word-match scores of a query by tool position: summed BM25, MiniSearch's coordination factor undone. */
function lexicalScores(index: MiniSearch<IndexedTool>, query: string): Map<number, number> {
  const results = index.search(query);
  // MiniSearch multiplies a score by the number of query words matched; that favours long
  // descriptions that share many common words with a chatty request. Plain summed BM25 ranks
  // better on tool text (decision 0020), so the factor is undone here.
  return new Map(results.map((result) => [result.id as number, result.score / Math.max(1, result.queryTerms.length)]));
}

function checkHubPenalty(hubPenalty: unknown): number {
  if (hubPenalty === undefined) return 2;
  if (typeof hubPenalty !== 'number' || !(hubPenalty >= 0) || !Number.isFinite(hubPenalty)) invalid(`createToolSearch hubPenalty must be a finite number of 0 or more, got ${String(hubPenalty)}`);
  return hubPenalty;
}

function checkSemantic(semantic: ToolSearchSemantic | undefined): number {
  if (semantic === undefined) return 0;
  if (typeof semantic !== 'object' || semantic === null || (typeof semantic.embed !== 'function' && typeof semantic.embedMany !== 'function')) {
    invalid('createToolSearch semantic needs an embed(text) function (or embedMany(texts))');
  }
  const weight = semantic.weight ?? 1;
  if (!(weight >= 0)) invalid(`createToolSearch semantic.weight must be 0 or more, got ${String(semantic.weight)}`);
  return weight;
}

/**
 * Indexes tool definitions for full-text search (BM25 on MiniSearch, in memory, nothing downloaded),
 * so an agent can send a search tool instead of hundreds of definitions (see `deferTools`). Names,
 * descriptions and parameter names and descriptions are indexed with their own weights; camelCase and
 * snake_case names are split into words, stop words dropped and words stemmed.
 *
 * When to use: a tool set too large to send whole, or picking the few tools a request needs.
 * Gotcha: ranking is lexical; a request that shares no word (or stem) with a tool's text will not
 * find it. Write tool descriptions with the words users say, or pass `semantic` (an embedder).
 * With an embedder that answers with a promise, `search` throws: use `searchAsync`.
 * @throws CtxkitError INVALID_ARGUMENT when `tools` is not an array or an entry is not a tool
 * definition; ToolEmbeddingError when a synchronous `semantic.embed` throws on a tool
 * @example
 * ```ts
 * const index = createToolSearch(tools);            // MCP, OpenAI or Anthropic shapes
 * const found = index.search('open a pull request', { limit: 5 });
 *
 * const semantic = createToolSearch(tools, { semantic: { embedMany: (texts) => myModel.embed(texts) } });
 * await semantic.ready;                             // every tool embedded (rejects if the model failed)
 * const meant = await semantic.searchAsync('make me a hoodie');
 * ```
 */
export function createToolSearch<Tool>(tools: readonly Tool[], options: ToolSearchOptions = {}): ToolSearch<Tool> {
  if (!Array.isArray(tools)) invalid(`createToolSearch takes an array of tools, got ${tools === null ? 'null' : typeof tools}`);
  const defaultLimit = checkLimit(options.defaultLimit ?? 5, 'createToolSearch defaultLimit');
  const hubPenalty = checkHubPenalty(options.hubPenalty);
  const index = createLexicalIndex(options);
  const semantic = options.semantic;
  const semanticWeight = checkSemantic(semantic);
  const names: string[] = [];
  const byName = new Map<string, number>();
  const embeddingInputs: ToolEmbeddingInput[] = [];
  const hubTexts: HubBankText[] = [];
  tools.forEach((tool, position) => {
    const text = toolSearchText(tool);
    if (text === undefined) {
      if (toolShape(tool) === 'provider-defined') {
        names.push(isRecord(tool) && typeof tool.type === 'string' ? tool.type : `#${position}`);
        return;
      }
      invalid(`tools[${position}] is not a tool definition: expected { name, inputSchema } (MCP), { type: "function", function } (OpenAI) or { name, input_schema } (Anthropic)`);
    }
    names.push(text.name);
    if (!byName.has(text.name)) byName.set(text.name, position);
    const words = `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}`;
    embeddingInputs.push({ position, name: text.name, text: words });
    hubTexts.push({ position, text: words });
    index.add({ id: position, name: `${text.name} ${text.title}`, description: text.description, parameters: text.parameters });
  });
  const excess = hubPenalty > 0 ? hubExcess(hubTexts, (query) => lexicalScores(index, query)) : new Map<number, number>();
  const wordScores = (query: string) => penaliseHubs(lexicalScores(index, query), excess, hubPenalty);
  const meaning: SemanticIndex | undefined = semantic ? createSemanticIndex(semantic, embeddingInputs) : undefined;

  const checkQuery = (query: string, rankOptions: ToolSearchQueryOptions) => {
    if (typeof query !== 'string') invalid(`search takes a query string, got ${query === null ? 'null' : typeof query}`);
    if (rankOptions.queryVector !== undefined && meaning === undefined) invalid('search got a queryVector, but the index has no semantic option to compare it with');
    return checkLimit(rankOptions.limit ?? defaultLimit, 'search');
  };
  const ranked = (lexical: Map<number, number>, queryVector: Float64Array | undefined, limit: number): ToolMatch<Tool>[] => {
    const scored = queryVector ? blendScores(lexical, queryVector, meaning!.toolVectors(), semanticWeight) : [...lexical].map(([id, score]) => ({ id, score }));
    scored.sort((a, b) => b.score - a.score || a.id - b.id);
    return scored.slice(0, limit).map(({ id, score }) => ({ tool: tools[id]!, name: names[id]!, index: id, score }));
  };
  const rank = (query: string, rankOptions: ToolSearchQueryOptions = {}): ToolMatch<Tool>[] => {
    const limit = checkQuery(query, rankOptions);
    const lexical = wordScores(query);
    if (rankOptions.queryVector !== undefined) return ranked(lexical, meaning!.givenVector(rankOptions.queryVector, query), limit);
    return ranked(lexical, meaning && query.trim() !== '' ? meaning.queryVector(query) : undefined, limit);
  };
  const rankAsync = async (query: string, rankOptions: ToolSearchQueryOptions = {}): Promise<ToolMatch<Tool>[]> => {
    const limit = checkQuery(query, rankOptions);
    await meaning?.ready;
    const lexical = wordScores(query);
    if (rankOptions.queryVector !== undefined) return ranked(lexical, meaning!.givenVector(rankOptions.queryVector, query), limit);
    return ranked(lexical, meaning && query.trim() !== '' ? await meaning.queryVectorAsync(query) : undefined, limit);
  };
  return {
    rank,
    search: (query, searchOptions) => rank(query, searchOptions).map((match) => match.tool),
    rankAsync,
    searchAsync: async (query, searchOptions) => (await rankAsync(query, searchOptions)).map((match) => match.tool),
    ready: meaning?.ready ?? Promise.resolve(),
    get: (name) => {
      const position = byName.get(name);
      return position === undefined ? undefined : tools[position];
    },
    get size() {
      return index.documentCount;
    },
  };
}
