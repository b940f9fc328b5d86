import { CtxkitError } from '@ctxkit/core';
import MiniSearch from 'minisearch';
import { isRecord } from './schema-keywords.ts';
import { blendScores, unitVector } from './semantic-blend.ts';
import { defaultStopWords, type SearchTermsOptions, searchTerms, splitWords } from './search-terms.ts';
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
   * A meaning signal to blend with the word match, for requests that share no word with the tool
   * they need: `embed` turns a text into a vector (static word vectors, a small embedding model you
   * ship); tools are embedded once, each request on every search. Nothing is downloaded by this
   * package. @default none (word match only)
   */
  semantic?: ToolSearchSemantic;
}

/** The embedding function and blend of {@link ToolSearchOptions.semantic}. */
export interface ToolSearchSemantic {
  /** A vector for a text; every vector the same length. Undefined when the text has no known word. */
  embed: (text: string) => ArrayLike<number> | undefined;
  /** Weight of the cosine similarity against the word-match score (both scaled to 0–1 per search). @default 1 */
  weight?: number;
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
  /** The matching tools, best first, in the shape they were given. */
  search(query: string, options?: { limit?: number }): Tool[];
  /** The same, with names, positions and scores. */
  rank(query: string, options?: { limit?: number }): ToolMatch<Tool>[];
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

/**
 * Indexes tool definitions for full-text search (BM25 on MiniSearch, in memory, nothing downloaded),
 * so an agent can send a search tool instead of hundreds of definitions (see `deferTools`). Names,
 * descriptions and parameter names and descriptions are indexed with their own weights; camelCase and
 * snake_case names are split into words, stop words dropped and words stemmed.
 *
 * When to use: a tool set too large to send whole, or picking the few tools a request needs.
 * Gotcha: ranking is lexical; a request that shares no word (or stem) with a tool's text will not
 * find it. Write tool descriptions with the words users say.
 * @throws CtxkitError INVALID_ARGUMENT when `tools` is not an array, an entry is not a tool definition,
 * or `semantic.embed` throws
 * @example
 * ```ts
 * const index = createToolSearch(tools);            // MCP, OpenAI or Anthropic shapes
 * const found = index.search('open a pull request', { limit: 5 });
 * ```
 */
export function createToolSearch<Tool>(tools: readonly Tool[], options: ToolSearchOptions = {}): ToolSearch<Tool> {
  if (!Array.isArray(tools)) invalid(`createToolSearch takes an array of tools, got ${tools === null ? 'null' : typeof tools}`);
  const defaultLimit = checkLimit(options.defaultLimit ?? 5, 'createToolSearch defaultLimit');
  const termOptions: SearchTermsOptions = { stopWords: new Set(options.stopWords ?? defaultStopWords), stem: options.stem ?? true };
  const tokenize = (text: string) => searchTerms(text, termOptions);
  const boost = { name: 1, description: 1, parameters: 0.05, ...options.boost };
  const prefixMinLength = options.prefixMinLength ?? 0;
  const index = new MiniSearch<{ id: number; name: string; description: string; parameters: string }>({
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
  const names: string[] = [];
  const semantic = options.semantic;
  if (semantic !== undefined && (typeof semantic !== 'object' || typeof semantic.embed !== 'function')) invalid('createToolSearch semantic needs an embed(text) function');
  const semanticWeight = semantic?.weight ?? 1;
  if (!(semanticWeight >= 0)) invalid(`createToolSearch semantic.weight must be 0 or more, got ${String(semantic?.weight)}`);
  const vectors: (Float64Array | undefined)[] = [];
  let dimensions: number | undefined;
  const embed = (text: string, where: string) => {
    try {
      return unitVector(semantic!.embed(text), dimensions);
    } catch (error) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: `semantic.embed threw on ${where}: ${(error as Error)?.message ?? String(error)}`, cause: error });
    }
  };
  const byName = new Map<string, number>();
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
    if (semantic) {
      const vector = embed(`${splitWords(text.name).join(' ')} ${text.title}\n${text.description}`, `tools[${position}]`);
      dimensions ??= vector?.length;
      vectors[position] = vector;
    }
    index.add({ id: position, name: `${text.name} ${text.title}`, description: text.description, parameters: text.parameters });
  });

  const rank = (query: string, rankOptions: { limit?: number } = {}): ToolMatch<Tool>[] => {
    if (typeof query !== 'string') invalid(`search takes a query string, got ${query === null ? 'null' : typeof query}`);
    const limit = checkLimit(rankOptions.limit ?? defaultLimit, 'search');
    const results = index.search(query);
    // MiniSearch multiplies a score by the number of query words matched; that favours long
    // descriptions that share many common words with a chatty request. Plain summed BM25 ranks
    // better on tool text (decision 0020), so the factor is undone here.
    for (const result of results) result.score /= Math.max(1, result.queryTerms.length);
    const queryVector = semantic && query.trim() !== '' ? embed(query, 'the query') : undefined;
    const scored = queryVector
      ? blendScores(new Map(results.map((result) => [result.id as number, result.score])), queryVector, vectors, semanticWeight)
      : results.map((result) => ({ id: result.id as number, score: result.score }));
    scored.sort((a, b) => b.score - a.score || a.id - b.id);
    return scored.slice(0, limit).map(({ id, score }) => ({ tool: tools[id]!, name: names[id]!, index: id, score }));
  };
  return {
    rank,
    search: (query, searchOptions) => rank(query, searchOptions).map((match) => match.tool),
    get: (name) => {
      const position = byName.get(name);
      return position === undefined ? undefined : tools[position];
    },
    get size() {
      return index.documentCount;
    },
  };
}
