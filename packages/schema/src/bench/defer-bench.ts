import { CtxkitError, type TokenizerPlugin } from '@ctxkit/core';
import { compactTools } from '../compact-tools.ts';
import { type DeferToolsOptions, deferTools } from '../defer-tools.ts';
import { isRecord } from '../schema-keywords.ts';

/** Options for {@link deferBench}. */
export interface DeferBenchOptions {
  /** The system message text. @default '' */
  system?: string;
  tools: readonly unknown[];
  /** Counts tokens; passed in, as for `schemaBench`. */
  tokenizer: TokenizerPlugin;
  /** Passed to `deferTools` (`alwaysLoaded`, `searchToolName`, ...). */
  defer?: DeferToolsOptions;
  /** How the tools are rendered as text. @default JSON.stringify */
  render?: (tools: readonly unknown[]) => string;
}

/** The fixed floor with every tool sent, and with the tools deferred behind a search tool. */
export interface DeferBenchReport {
  tokenizer: string;
  /** Tools given and tools deferred (not sent until found). */
  tools: number;
  deferred: number;
  /** System message plus every tool, as given. */
  before: number;
  /** System message plus the always-loaded tools and the search tool. */
  after: number;
  /** The same, with the sent tools compacted by `compactTools` defaults. */
  afterCompacted: number;
  /** 1 − after ÷ before. */
  savedFraction: number;
  /** Tokens of the search tool alone. */
  searchTool: number;
}

/**
 * Measures what deferring a tool set saves on the fixed floor of every request: the system message
 * plus every tool, against the system message plus the always-loaded tools and one search tool.
 * Tools a run's searches load come on top of `after`, a few at a time.
 * @throws CtxkitError INVALID_ARGUMENT for a tokenizer without `count` (and whatever `deferTools` throws)
 * @example
 * ```ts
 * const report = await deferBench({ tools, tokenizer, defer: { alwaysLoaded: ['read_file'] } });
 * console.log(`${report.before} -> ${report.after} tokens (${Math.round(report.savedFraction * 100)}% less)`);
 * ```
 */
export async function deferBench(options: DeferBenchOptions): Promise<DeferBenchReport> {
  const { tokenizer } = options;
  if (!isRecord(tokenizer) || typeof tokenizer.count !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: 'deferBench needs a tokenizer plugin with a count(text) method' });
  }
  await tokenizer.load?.();
  const render = options.render ?? ((tools: readonly unknown[]) => JSON.stringify(tools));
  const system = tokenizer.count(options.system ?? '');
  const deferred = deferTools(options.tools, options.defer);
  const before = system + tokenizer.count(render(options.tools));
  const after = system + tokenizer.count(render(deferred.tools));
  const afterCompacted = system + tokenizer.count(render(compactTools(deferred.tools as Record<string, unknown>[], { onWarning: () => {} })));
  return {
    tokenizer: tokenizer.id,
    tools: options.tools.length,
    deferred: deferred.deferred.length,
    before,
    after,
    afterCompacted,
    savedFraction: before === 0 ? 0 : 1 - after / before,
    searchTool: tokenizer.count(render([deferred.searchTool])),
  };
}
