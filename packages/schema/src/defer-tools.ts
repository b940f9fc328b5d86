import { CtxkitError, type Message } from '@ctxkit/core';
import { firstSentence } from './first-sentence.ts';
import { isRecord } from './schema-keywords.ts';
import { createToolSearch, type ToolMatch, type ToolSearchOptions, toolSearchText } from './tool-search.ts';
import { type ToolShape, toolShape } from './tool-shapes.ts';

/** Options for {@link deferTools}. */
export interface DeferToolsOptions {
  /** Tools always sent whole (by name): the few the agent uses on most steps. Hosted tools without a name are always sent. @default [] */
  alwaysLoaded?: readonly string[];
  /** The search tool's name. @default 'search_tools' */
  searchToolName?: string;
  /** Tools one search loads. @default 5 */
  limit?: number;
  /** Characters of deferred tool names the search tool's description may list, so the model knows what exists. @default 4000 */
  namesBudget?: number;
  /** The shape of the search tool; @default the shape of the first tool given */
  shape?: Exclude<ToolShape, 'provider-defined'>;
  /** Passed to `createToolSearch`. */
  search?: ToolSearchOptions;
}

/** What the tool list holds now; the same shape as the engine's `ToolLoading`. */
export interface ToolLoading<Tool = unknown> {
  /** The tools to send: always-loaded ones, the search tool, then loaded ones in the order they were loaded. */
  tools: Tool[];
  /** Names of the tools not sent (not loaded yet). */
  deferred: string[];
  /** Names that searches returned, in the order found. */
  found: string[];
  /** Names added to the list (found, or named by the model without a search), in the order loaded. */
  loaded: string[];
}

/** A call of a tool, as the model made it (`arguments` as JSON text or already parsed). */
export interface DeferredToolCall {
  id?: string;
  name: string;
  arguments?: string | Record<string, unknown>;
}

/** Tools deferred behind a search tool; see {@link deferTools}. */
export interface DeferredTools<Tool> {
  /** The tools to send on the next request. */
  readonly tools: Tool[];
  /** The search tool, in the shape of the tools given. */
  readonly searchTool: Tool;
  readonly searchToolName: string;
  /** Names of the tools not loaded yet. */
  readonly deferred: string[];
  /** Names searches returned so far. */
  readonly found: string[];
  /** Names loaded so far, in the order they were appended. */
  readonly loaded: string[];
  /**
   * Answers a call of the search tool and loads what it found: the tool result text to send back.
   * Undefined for a call of any other tool.
   */
  handle(call: DeferredToolCall): string | undefined;
  /**
   * `handle` for any embedder: with `search.semantic` answering with a promise, `handle` throws and
   * this is the one to call. Rejects with the `ToolEmbeddingError` of a failed embedding (nothing is loaded then).
   */
  handleAsync(call: DeferredToolCall): Promise<string | undefined>;
  /**
   * A deferred (or loaded) tool by name, loading it: for a call the model made to a tool it never
   * searched for. Undefined for a name that is not one of the tools.
   */
  resolve(name: string): Tool | undefined;
  /**
   * Reads a transcript (search calls and calls of deferred tools), loads what they need, and returns
   * the list to send: the hook `createContextManager({ toolLoader })` calls on every `prepare`.
   */
  toolsFor(messages: readonly Message[]): ToolLoading<Tool>;
  /**
   * `toolsFor` for any embedder: the engine accepts it as a tool loader,
   * `createContextManager({ toolLoader: { toolsFor: (messages) => deferred.toolsForAsync(messages) } })`.
   */
  toolsForAsync(messages: readonly Message[]): Promise<ToolLoading<Tool>>;
  /** Settles once the search index has embedded every tool (at once without an asynchronous embedder). */
  readonly ready: Promise<void>;
}

function invalid(message: string): never {
  throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message });
}

function buildSearchTool(shape: Exclude<ToolShape, 'provider-defined'>, name: string, description: string, limit: number): Record<string, unknown> {
  const parameters = {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you want to do, in a few words (for example "create a pull request").' },
      limit: { type: 'integer', minimum: 1, maximum: 20, description: `How many tools to load (default ${limit}).` },
    },
    required: ['query'],
  };
  switch (shape) {
    case 'mcp':
      return { name, description, inputSchema: parameters };
    case 'anthropic':
      return { name, description, input_schema: parameters };
    case 'openai':
      return { type: 'function', function: { name, description, parameters } };
    case 'openai-responses':
      return { type: 'function', name, description, parameters };
    default:
      return { name, description, parameters };
  }
}

function describeNames(names: readonly string[], budget: number): string {
  const listed: string[] = [];
  let used = 0;
  for (const name of names) {
    if (used + name.length + 2 > budget) break;
    listed.push(name);
    used += name.length + 2;
  }
  const rest = names.length - listed.length;
  return `${listed.join(', ')}${rest > 0 ? `, and ${rest} more` : ''}`;
}

function parseArguments(raw: DeferredToolCall['arguments']): Record<string, unknown> | undefined {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The query and count a search call asks for, or the text to answer a malformed call with. */
function searchRequest(args: Record<string, unknown> | undefined, searchToolName: string, limit: number): { query: string; count: number } | string {
  const query = args?.query;
  if (typeof query !== 'string' || query.trim() === '') return `${searchToolName} needs {"query": "what you want to do"}; nothing was loaded.`;
  const asked = args?.limit;
  return { query, count: typeof asked === 'number' && Number.isInteger(asked) && asked >= 1 ? Math.min(asked, 20) : limit };
}

/** The tool result of a search that loaded `matches`: each name with its description's first sentence. */
function describeLoaded(matches: readonly ToolMatch<unknown>[]): string {
  const lines = matches.map((match) => {
    const summary = firstSentence(toolSearchText(match.tool)?.description ?? '').replace(/\s+/g, ' ');
    return `- ${match.name}${summary === '' ? '' : `: ${summary}`}`;
  });
  return `Loaded ${matches.length} tool${matches.length === 1 ? '' : 's'}, callable from your next turn:\n${lines.join('\n')}`;
}

/** What a transcript asks for, in order: searches not answered yet (marked answered now), and tools called by name. */
function* transcriptActions(messages: readonly Message[], searchToolName: string, answeredCalls: Set<string>): Generator<{ search: Record<string, unknown> | undefined } | { load: string }> {
  if (!Array.isArray(messages)) invalid(`toolsFor takes the transcript as an array of messages, got ${typeof messages}`);
  for (const message of messages) {
    if (message?.role !== 'assistant' || !Array.isArray(message.toolCalls)) continue;
    for (const call of message.toolCalls) {
      if (call.name !== searchToolName) yield { load: call.name };
      else if (!answeredCalls.has(call.id)) {
        answeredCalls.add(call.id);
        yield { search: parseArguments(call.arguments) };
      }
    }
  }
}

/** `deferTools`' own options, checked, with their defaults. */
function deferOptions(tools: unknown, options: DeferToolsOptions): { searchToolName: string; alwaysLoaded: readonly string[]; limit: number } {
  if (!Array.isArray(tools)) invalid(`deferTools takes an array of tools, got ${tools === null ? 'null' : typeof tools}`);
  const searchToolName = options.searchToolName ?? 'search_tools';
  if (typeof searchToolName !== 'string' || searchToolName.trim() === '') invalid(`deferTools searchToolName must be a tool name, got ${JSON.stringify(searchToolName)}`);
  // A string would be read letter by letter ("alwaysLoaded names "r"" for 'read_file').
  const alwaysLoaded: unknown = options.alwaysLoaded ?? [];
  if (!Array.isArray(alwaysLoaded) || !alwaysLoaded.every((name) => typeof name === 'string')) invalid(`deferTools alwaysLoaded must be an array of tool names, got ${JSON.stringify(alwaysLoaded)}`);
  const limit = options.limit ?? 5;
  if (!Number.isInteger(limit) || limit < 1) invalid(`deferTools limit must be a whole number of 1 or more, got ${String(limit)}`);
  return { searchToolName, alwaysLoaded, limit };
}

/**
 * Defers a large tool set behind one search tool: send `tools` (the always-loaded tools plus the
 * search tool) instead of every definition; when the model calls the search tool, `handle` answers
 * it and the tools it found are appended to `tools` for the following requests. Appending keeps the
 * prompt-cache prefix (system message, earlier tools) byte-identical. A tool the model calls without
 * having searched is resolved by name and loaded too.
 *
 * When to use: more tools than a model uses in a run (several MCP servers). Gotcha: loaded tools stay
 * loaded for the rest of the run (unloading would break the cached prefix); make a new `deferTools`
 * for a new run.
 * @throws CtxkitError INVALID_ARGUMENT when `tools` is not an array of tool definitions, two tools
 * share a name, an `alwaysLoaded` name is not among the tools, or the search tool's name is taken
 * @example
 * ```ts
 * const deferred = deferTools(mcpTools, { alwaysLoaded: ['read_file'] });
 * // each step: send deferred.tools; for each tool call the model makes:
 * const text = deferred.handle(call) ?? (await runTool(deferred.resolve(call.name), call));
 * ```
 */
export function deferTools<Tool>(tools: readonly Tool[], options: DeferToolsOptions = {}): DeferredTools<Tool> {
  const { searchToolName, alwaysLoaded, limit } = deferOptions(tools, options);
  const index = createToolSearch(tools, { defaultLimit: limit, ...options.search });
  const names: (string | undefined)[] = tools.map((tool) => toolSearchText(tool)?.name);
  const positionOf = new Map<string, number>();
  names.forEach((name, position) => {
    if (name === undefined) return;
    if (positionOf.has(name)) invalid(`tools[${position}] repeats the name ${JSON.stringify(name)} of tools[${positionOf.get(name)}]; tool names must be unique`);
    positionOf.set(name, position);
  });
  if (positionOf.has(searchToolName)) invalid(`a tool is already named ${JSON.stringify(searchToolName)}; pass another searchToolName`);
  const always = new Set<string>(alwaysLoaded);
  for (const name of always) if (!positionOf.has(name)) invalid(`alwaysLoaded names ${JSON.stringify(name)}, which is not among the tools`);
  const shape = options.shape ?? tools.map((tool) => toolShape(tool)).find((found) => found !== undefined && found !== 'provider-defined') ?? 'mcp';
  const base = tools.filter((_tool, position) => names[position] === undefined || always.has(names[position]!));
  const deferredNames = names.filter((name): name is string => name !== undefined && !always.has(name));
  const description =
    `Finds and loads tools. ${deferredNames.length} more tools are available but not loaded; a search loads the best matches, ` +
    'which you can call from your next turn. Describe what you want to do, not a tool name. ' +
    `Available: ${describeNames(deferredNames, options.namesBudget ?? 4000)}.`;
  const searchTool = buildSearchTool(shape, searchToolName, description, limit) as Tool;

  const loaded: string[] = [];
  const loadedSet = new Set<string>();
  const found: string[] = [];
  const foundSet = new Set<string>();
  const answeredCalls = new Set<string>();
  const load = (name: string) => {
    if (always.has(name) || loadedSet.has(name) || !positionOf.has(name)) return;
    loadedSet.add(name);
    loaded.push(name);
  };
  const current = (): Tool[] => [...base, searchTool, ...loaded.map((name) => tools[positionOf.get(name)!]!)];

  /** Loads what a search found and says so, in the tool result's words. */
  const report = (query: string, count: number, ranked: readonly ToolMatch<Tool>[]): string => {
    const matches = ranked.filter((match) => !always.has(match.name)).slice(0, count);
    if (matches.length === 0) return `No tool matched ${JSON.stringify(query)}. Try other words.`;
    for (const match of matches) {
      if (!foundSet.has(match.name)) {
        foundSet.add(match.name);
        found.push(match.name);
      }
      load(match.name);
    }
    return describeLoaded(matches);
  };
  const answer = (args: Record<string, unknown> | undefined): string => {
    const asked = searchRequest(args, searchToolName, limit);
    if (typeof asked === 'string') return asked;
    return report(asked.query, asked.count, index.rank(asked.query, { limit: asked.count + always.size }));
  };
  const answerAsync = async (args: Record<string, unknown> | undefined): Promise<string> => {
    const asked = searchRequest(args, searchToolName, limit);
    if (typeof asked === 'string') return asked;
    return report(asked.query, asked.count, await index.rankAsync(asked.query, { limit: asked.count + always.size }));
  };

  /** The search call's arguments to answer, or undefined for a call of another tool; marks it answered. */
  const searchCall = (call: DeferredToolCall): Record<string, unknown> | undefined | false => {
    if (!isRecord(call) || call.name !== searchToolName) return false;
    if (typeof call.id === 'string') answeredCalls.add(call.id);
    return parseArguments(call.arguments);
  };
  const handle = (call: DeferredToolCall): string | undefined => {
    const args = searchCall(call);
    return args === false ? undefined : answer(args);
  };
  const handleAsync = async (call: DeferredToolCall): Promise<string | undefined> => {
    const args = searchCall(call);
    return args === false ? undefined : answerAsync(args);
  };
  const state = (): ToolLoading<Tool> => ({
    tools: current(),
    deferred: deferredNames.filter((name) => !loadedSet.has(name)),
    found: [...found],
    loaded: [...loaded],
  });

  return {
    get tools() {
      return current();
    },
    searchTool,
    searchToolName,
    get deferred() {
      return state().deferred;
    },
    get found() {
      return [...found];
    },
    get loaded() {
      return [...loaded];
    },
    handle,
    handleAsync,
    resolve(name) {
      const position = positionOf.get(name);
      if (position === undefined) return undefined;
      load(name);
      return tools[position];
    },
    toolsFor(messages) {
      for (const action of transcriptActions(messages, searchToolName, answeredCalls)) {
        if ('load' in action) load(action.load);
        else answer(action.search);
      }
      return state();
    },
    async toolsForAsync(messages) {
      for (const action of transcriptActions(messages, searchToolName, answeredCalls)) {
        if ('load' in action) load(action.load);
        else await answerAsync(action.search);
      }
      return state();
    },
    ready: index.ready,
  };
}
