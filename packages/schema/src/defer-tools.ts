import { CtxkitError, type Message } from '@ctxkit/core';
import { firstSentence } from './first-sentence.ts';
import { isRecord } from './schema-keywords.ts';
import { createToolSearch, type ToolSearchOptions, toolSearchText } from './tool-search.ts';
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
   * A deferred (or loaded) tool by name, loading it: for a call the model made to a tool it never
   * searched for. Undefined for a name that is not one of the tools.
   */
  resolve(name: string): Tool | undefined;
  /**
   * Reads a transcript (search calls and calls of deferred tools), loads what they need, and returns
   * the list to send: the hook `createContextManager({ toolLoader })` calls on every `prepare`.
   */
  toolsFor(messages: readonly Message[]): ToolLoading<Tool>;
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
  if (!Array.isArray(tools)) invalid(`deferTools takes an array of tools, got ${tools === null ? 'null' : typeof tools}`);
  const searchToolName = options.searchToolName ?? 'search_tools';
  const limit = options.limit ?? 5;
  if (!Number.isInteger(limit) || limit < 1) invalid(`deferTools limit must be a whole number of 1 or more, got ${String(limit)}`);
  const index = createToolSearch(tools, { defaultLimit: limit, ...options.search });
  const names: (string | undefined)[] = tools.map((tool) => toolSearchText(tool)?.name);
  const positionOf = new Map<string, number>();
  names.forEach((name, position) => {
    if (name === undefined) return;
    if (positionOf.has(name)) invalid(`tools[${position}] repeats the name ${JSON.stringify(name)} of tools[${positionOf.get(name)}]; tool names must be unique`);
    positionOf.set(name, position);
  });
  if (positionOf.has(searchToolName)) invalid(`a tool is already named ${JSON.stringify(searchToolName)}; pass another searchToolName`);
  const always = new Set(options.alwaysLoaded ?? []);
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

  const answer = (args: Record<string, unknown> | undefined): string => {
    const query = args?.query;
    if (typeof query !== 'string' || query.trim() === '') return `${searchToolName} needs {"query": "what you want to do"}; nothing was loaded.`;
    const asked = args?.limit;
    const count = typeof asked === 'number' && Number.isInteger(asked) && asked >= 1 ? Math.min(asked, 20) : limit;
    const matches = index
      .rank(query, { limit: count + always.size })
      .filter((match) => !always.has(match.name))
      .slice(0, count);
    if (matches.length === 0) return `No tool matched ${JSON.stringify(query)}. Try other words.`;
    const lines = matches.map((match) => {
      if (!foundSet.has(match.name)) {
        foundSet.add(match.name);
        found.push(match.name);
      }
      load(match.name);
      const summary = firstSentence(toolSearchText(match.tool)?.description ?? '').replace(/\s+/g, ' ');
      return `- ${match.name}${summary === '' ? '' : `: ${summary}`}`;
    });
    return `Loaded ${matches.length} tool${matches.length === 1 ? '' : 's'}, callable from your next turn:\n${lines.join('\n')}`;
  };

  const handle = (call: DeferredToolCall): string | undefined => {
    if (!isRecord(call) || call.name !== searchToolName) return undefined;
    if (typeof call.id === 'string') answeredCalls.add(call.id);
    return answer(parseArguments(call.arguments));
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
    resolve(name) {
      const position = positionOf.get(name);
      if (position === undefined) return undefined;
      load(name);
      return tools[position];
    },
    toolsFor(messages) {
      if (!Array.isArray(messages)) invalid(`toolsFor takes the transcript as an array of messages, got ${typeof messages}`);
      for (const message of messages) {
        if (message?.role !== 'assistant' || !Array.isArray(message.toolCalls)) continue;
        for (const call of message.toolCalls) {
          if (call.name === searchToolName) {
            if (answeredCalls.has(call.id)) continue;
            answeredCalls.add(call.id);
            answer(parseArguments(call.arguments));
          } else load(call.name);
        }
      }
      return state();
    },
  };
}
