import { CtxkitError } from '@ctxkit/core';
import { type Bm25fDocument, type Bm25fIndex, createBm25fIndex } from './bm25f-index.ts';
import { isRecord } from './schema-keywords.ts';
import { defaultStopWords, splitWords } from './search-terms.ts';
import { blendScores } from './semantic-blend.ts';
import { createSemanticIndex, type SemanticIndex, type ToolEmbeddingInput, type ToolSearchSemantic } from './tool-embeddings.ts';
import { type HubBankText, hubExcess, penaliseHubs } from './tool-hubness.ts';
import { toolParts, toolShape } from './tool-shapes.ts';

/**
 * Weight of one occurrence of a word in each part of a tool. Under BM25F a weight multiplies the
 * word's (length-normalised) count in that part before the parts are added and saturated once, so
 * name 3 means a name word counts as three description words; `0` ignores the part.
 */
export interface ToolSearchBoost {
  /** The tool's name (split into words) and its `title`. @default 3 */
  name?: number;
  /** The tool's description. @default 1 */
  description?: number;
  /** Parameter names and parameter descriptions, nested ones included. @default 0.05 */
  parameters?: number;
}

/** Options for {@link createToolSearch}. */
export interface ToolSearchOptions {
  /** Field weights on word counts; the defaults were chosen on half of the MetaTool requests (decisions 0020, 0101). */
  boost?: ToolSearchBoost;
  /** Words never indexed or searched for; `[]` keeps every word. @default defaultStopWords */
  stopWords?: readonly string[];
  /** Porter stemming, so `searching` finds `search`. @default true */
  stem?: boolean;
  /**
   * BM25F constants, each applied once per query word and tool: `k` saturates the word's weighted
   * count summed over the parts (name, description, parameters); `b` normalises every part's count by
   * that part's length against its average over the pool (0 off, 1 full); `d` is the BM25+ floor added
   * for any match. One IDF per word over whole tools. @default { k: 4, b: 0.7, d: 0.5 }
   * @throws CtxkitError INVALID_ARGUMENT for a negative or non-finite value, or `b` above 1
   */
  bm25?: { k?: number; b?: number; d?: number };
  /**
   * Also match words that start with a query word of at least this many letters (`0` turns it off). @default 0
   * @throws CtxkitError INVALID_ARGUMENT for anything but a whole number of 0 or more
   */
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

// Generic-word prior of decision 0101: scores × (the tool's mean word IDF / the pool's, clamped 0.5–1.5) to this power.
const genericPrior = 0.3;

function checkWeight(value: unknown, where: string, maximum = Number.POSITIVE_INFINITY): void {
  if (value !== undefined && (typeof value !== 'number' || !(value >= 0) || !(value <= maximum) || !Number.isFinite(value))) {
    invalid(`createToolSearch ${where} must be a finite number from 0${maximum === 1 ? ' to 1' : ''}, got ${String(value)}`);
  }
}

/** The BM25F index with our tokenizer, field weights and constants (decisions 0020 and 0101). */
function createLexicalIndex(documents: readonly Bm25fDocument[], options: ToolSearchOptions): Bm25fIndex {
  const boost = { name: 3, description: 1, parameters: 0.05, ...options.boost };
  const bm25 = { k: 4, b: 0.7, d: 0.5, ...options.bm25 };
  for (const field of ['name', 'description', 'parameters'] as const) checkWeight(boost[field], `boost.${field}`);
  checkWeight(bm25.k, 'bm25.k');
  checkWeight(bm25.b, 'bm25.b', 1);
  checkWeight(bm25.d, 'bm25.d');
  return createBm25fIndex(documents, {
    weights: [boost.name, boost.description, boost.parameters],
    k: bm25.k,
    b: bm25.b,
    d: bm25.d,
    genericPrior,
    prefixMinLength: options.prefixMinLength ?? 0,
    terms: { stopWords: new Set(options.stopWords ?? defaultStopWords), stem: options.stem ?? true },
  });
}

/** The values that are given: `{ name: undefined }` (a JavaScript caller, a setting left unset) leaves the default in place. */
function givenValues<Values extends object>(values: Values | undefined): Partial<Values> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== undefined)) as Partial<Values>;
}

function checkPrefixMinLength(prefixMinLength: unknown): void {
  if (prefixMinLength !== undefined && (typeof prefixMinLength !== 'number' || !Number.isInteger(prefixMinLength) || prefixMinLength < 0)) {
    invalid(`createToolSearch prefixMinLength must be a whole number of 0 or more, got ${typeof prefixMinLength === 'string' ? JSON.stringify(prefixMinLength) : String(prefixMinLength)}`);
  }
}

/** A value as a message shows it: a string quoted, so `'5'` and `5` differ. */
const shown = (value: unknown) => (typeof value === 'string' ? `the string ${JSON.stringify(value)}` : Array.isArray(value) ? 'an array' : value === null ? 'null' : String(value));

/** The options object itself, and the fields the other checks do not cover (decision 0105). */
function checkOptionsShape(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) invalid(`createToolSearch options must be an object, got ${shown(options)}`);
  const { stopWords, stem } = options as ToolSearchOptions;
  if (stopWords !== undefined && (!Array.isArray(stopWords) || stopWords.some((word) => typeof word !== 'string')))
    invalid(
      `createToolSearch stopWords must be an array of words, got ${Array.isArray(stopWords) ? `an array holding ${shown(stopWords.find((word) => typeof word !== 'string'))}` : shown(stopWords)}`,
    );
  if (stem !== undefined && typeof stem !== 'boolean') invalid(`createToolSearch stem must be true or false, got ${shown(stem)}`);
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
 * Indexes tool definitions for full-text search (BM25F, in memory, nothing downloaded),
 * so an agent can send a search tool instead of hundreds of definitions (see `deferTools`). Names,
 * descriptions and parameter names and descriptions are indexed with their own weights; camelCase and
 * snake_case names are split into words, stop words dropped and words stemmed. A word's counts in the
 * three parts are added before one saturation and one IDF (BM25F), so a generic word in both a tool's
 * name and description counts once, not twice; scores are then multiplied by a mild prior against tools
 * made only of common words, and hub tools are held back (`hubPenalty`). Decision 0101.
 *
 * When to use: a tool set too large to send whole, or picking the few tools a request needs.
 * Gotcha: ranking is lexical; a request that shares no word (or stem) with a tool's text will not
 * find it. Write tool descriptions with the words users say, or pass `semantic` (an embedder).
 * With an embedder that answers with a promise, `search` throws: use `searchAsync`.
 * @throws CtxkitError INVALID_ARGUMENT when `tools` is not an array or an entry is not a tool
 * definition, `options` is not an object, `stopWords` not an array of strings, `stem` not a boolean, or a
 * `boost` or `bm25` value is negative or not finite; ToolEmbeddingError when a synchronous `semantic.embed` throws on a tool
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
  checkOptionsShape(options);
  const defaultLimit = checkLimit(options.defaultLimit ?? 5, 'createToolSearch defaultLimit');
  const hubPenalty = checkHubPenalty(options.hubPenalty);
  checkPrefixMinLength(options.prefixMinLength);
  const semantic = options.semantic;
  const semanticWeight = checkSemantic(semantic);
  const names: string[] = [];
  const byName = new Map<string, number>();
  const embeddingInputs: ToolEmbeddingInput[] = [];
  const hubTexts: HubBankText[] = [];
  const documents: Bm25fDocument[] = [];
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
    documents.push({ id: position, fields: [`${text.name} ${text.title}`, text.description, text.parameters] });
  });
  const index = createLexicalIndex(documents, { ...options, boost: givenValues(options.boost), bm25: givenValues(options.bm25) });
  const excess = hubPenalty > 0 ? hubExcess(hubTexts, index.scores) : new Map<number, number>();
  const wordScores = (query: string) => penaliseHubs(index.scores(query), excess, hubPenalty);
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
      return index.size;
    },
  };
}
