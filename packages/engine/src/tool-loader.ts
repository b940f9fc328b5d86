import { CtxkitError, type Message } from '@ctxkit/core';

/** What a {@link ToolLoader} decided for one request. */
export interface ToolLoading {
  /** The tool definitions to send with this request. */
  tools: readonly unknown[];
  /** Names of tools held back (not sent). */
  deferred: readonly string[];
  /** Names that the model's searches returned so far. */
  found: readonly string[];
  /** Names added to the list so far (found, or called by name), in the order they were appended. */
  loaded: readonly string[];
}

/**
 * Decides which tool definitions a request sends, from the transcript: the contract `deferTools`
 * from @ctxkit/schema fulfils (the engine imports no schema code). Implementations keep the list
 * append-only, so the cached prompt prefix survives.
 */
export interface ToolLoader {
  /** The tools for this request; a promise when the loader has to wait (an asynchronous embedder behind its search). */
  toolsFor(messages: readonly Message[]): ToolLoading | PromiseLike<ToolLoading>;
}

/** The part of a prepare report about deferred tools. */
export interface ToolLoadingReport {
  /** Tools sent with this request. */
  sent: number;
  deferred: readonly string[];
  found: readonly string[];
  loaded: readonly string[];
}

/** The tools one request sends and what the report says of them. */
export interface LoadedTools {
  tools: readonly unknown[];
  report: ToolLoadingReport;
}

/**
 * Asks the loader for this request's tools and checks what it returned: at once for a loader that
 * answers at once (no extra turn of the event loop), else a promise.
 * @throws CtxkitError INVALID_PLUGIN when the loader returns no `tools` array (a rejection when it answered with a promise)
 */
export function loadTools(loader: ToolLoader, messages: readonly Message[]): LoadedTools | Promise<LoadedTools> {
  const loading = loader.toolsFor(messages);
  if (loading !== null && typeof (loading as PromiseLike<ToolLoading>)?.then === 'function') return Promise.resolve(loading).then(checkLoading);
  return checkLoading(loading as ToolLoading);
}

function checkLoading(loading: ToolLoading): LoadedTools {
  if (!loading || !Array.isArray(loading.tools)) {
    throw new CtxkitError({ code: 'INVALID_PLUGIN', source: 'engine', message: 'toolLoader.toolsFor must return { tools: [...], deferred, found, loaded }' });
  }
  const names = (value: unknown) => (Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []);
  return {
    tools: loading.tools,
    report: { sent: loading.tools.length, deferred: names(loading.deferred), found: names(loading.found), loaded: names(loading.loaded) },
  };
}

/**
 * Checks a tool list (`tools` of the manager or of `prepare`) and a `toolLoader` where they are given, so a
 * wrong one fails there, naming the option, and not as a TypeError inside a later `prepare` (or, for a tool
 * list that is not an array, counted as text without a word).
 * @throws CtxkitError INVALID_ARGUMENT naming the option
 */
export function checkToolOptions(where: string, options: { tools?: unknown; toolLoader?: unknown }): void {
  const describe = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
  if (options.tools !== undefined && !Array.isArray(options.tools)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'engine', message: `${where} tools must be an array of tool definitions, got ${describe(options.tools)}` });
  }
  const loader = options.toolLoader as { toolsFor?: unknown } | null | undefined;
  if (loader !== undefined && typeof loader?.toolsFor !== 'function') {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'engine',
      message: `${where} toolLoader must be an object with toolsFor(messages) (deferTools of @ctxkit/schema is one), got ${typeof loader === 'function' ? 'a function' : describe(loader)}`,
    });
  }
}
