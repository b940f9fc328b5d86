import { CtxkitError, type TokenizerPlugin } from '@ctxkit/core';
import type { CompactionWarning } from '../compaction-warning.ts';
import { type CompactToolsOptions, compactToolsChecked } from '../compact-tools.ts';
import { isRecord } from '../schema-keywords.ts';
import { toolParts, toolShape } from '../tool-shapes.ts';

/** Tokens before and after compaction. */
export interface TokenSavings {
  tokens: number;
  compactedTokens: number;
  savedTokens: number;
  /** savedTokens ÷ tokens; 0 when there were no tokens. */
  savedFraction: number;
}

/** The cost of one tool, before and after compaction. */
export interface ToolCost extends TokenSavings {
  /** Position in the list given. */
  index: number;
  name: string;
  /** What compaction did with it (`passed-through`: invalid, returned unchanged; see the warnings). */
  outcome: 'compacted' | 'passed-through' | 'provider-defined';
}

/** What {@link schemaBench} measured. */
export interface SchemaBenchReport {
  /** The tokenizer's id, so reports from different tokenizers are not compared by mistake. */
  tokenizer: string;
  system: { tokens: number };
  /** Every tool, most expensive first. */
  tools: ToolCost[];
  /** All tools together. */
  toolsTotal: TokenSavings;
  /** System message plus tools: what every step resends before the first message. */
  floor: TokenSavings;
  /** The compacted tools, in the order given. */
  compacted: unknown[];
  warnings: CompactionWarning[];
}

/** Options for {@link schemaBench}. */
export interface SchemaBenchOptions {
  /** The system message text. @default '' */
  system?: string;
  tools: readonly unknown[];
  /** Counts tokens; passed in (for example `@ctxkit/tokens`' tiktoken counter) so this package imports none. */
  tokenizer: TokenizerPlugin;
  /** How to compact (default: `compactTools` defaults). Warnings are collected in the report, not printed. */
  compaction?: Omit<CompactToolsOptions, 'onWarning' | 'onInvalid'>;
  /**
   * The text a tool costs as: compact JSON by default, which is what MCP and most APIs carry. Providers
   * re-render tools into their own prompt format, so absolute counts differ a little by provider;
   * the savings ratio is what carries over. @default JSON.stringify
   */
  render?: (tool: unknown) => string;
}

function savings(tokens: number, compactedTokens: number): TokenSavings {
  const savedTokens = tokens - compactedTokens;
  return { tokens, compactedTokens, savedTokens, savedFraction: tokens === 0 ? 0 : savedTokens / tokens };
}

function nameOf(tool: unknown, index: number): string {
  const shape = toolShape(tool);
  if (shape !== undefined && isRecord(tool)) {
    const { name } = toolParts(tool, shape);
    if (typeof name === 'string') return name;
    if (shape === 'provider-defined' && typeof tool.type === 'string') return tool.type;
  }
  return `#${index}`;
}

/**
 * Measures the fixed floor every step resends (system message plus tool definitions) and what
 * `compactTools` saves on it: tokens per tool, most expensive first, the tools in all, and the floor
 * in all. Message compaction never touches this floor; this is how a user sees whether the floor or
 * the history is what costs.
 * @throws CtxkitError INVALID_ARGUMENT when `tools` is not an array, the tokenizer has no `count`, or a
 * tool cannot be rendered (a cycle); TOKENIZER_FAILED when counting throws
 * @example
 * ```ts
 * // tokenizer: any TokenizerPlugin, such as the tiktoken counter of @ctxkit/tokens
 * const report = await schemaBench({ system, tools, tokenizer });
 * console.log(`floor ${report.floor.tokens} -> ${report.floor.compactedTokens} tokens`);
 * for (const tool of report.tools.slice(0, 5)) console.log(tool.name, tool.tokens, '->', tool.compactedTokens);
 * ```
 */
export async function schemaBench(options: SchemaBenchOptions): Promise<SchemaBenchReport> {
  const { tokenizer } = options;
  if (!isRecord(tokenizer) || typeof tokenizer.count !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: 'schemaBench needs a tokenizer plugin with a count(text) method' });
  }
  if (!Array.isArray(options.tools)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: `schemaBench needs tools as an array, got ${typeof options.tools}` });
  }
  await tokenizer.load?.();
  const render = options.render ?? ((tool: unknown) => JSON.stringify(tool));
  const count = (text: string, what: string) => {
    try {
      return tokenizer.count(text);
    } catch (error) {
      throw new CtxkitError({ code: 'TOKENIZER_FAILED', source: 'schema', message: `tokenizer ${tokenizer.id} failed on ${what}`, cause: error });
    }
  };
  const renderTool = (tool: unknown, where: string) => {
    try {
      return render(tool) ?? '';
    } catch (error) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: `${where} cannot be rendered as text: ${(error as Error).message}`, cause: error });
    }
  };
  const compaction = compactToolsChecked(options.tools, { ...options.compaction, onInvalid: 'warn' });
  const tools = options.tools.map((tool, index): ToolCost => {
    const name = nameOf(tool, index);
    const where = `tool ${index} (${JSON.stringify(name)})`;
    return {
      index,
      name,
      outcome: compaction.outcomes[index]!,
      ...savings(count(renderTool(tool, where), where), count(renderTool(compaction.tools[index], where), `${where} compacted`)),
    };
  });
  const systemTokens = count(options.system ?? '', 'the system message');
  const toolTokens = tools.reduce((sum, tool) => sum + tool.tokens, 0);
  const compactedToolTokens = tools.reduce((sum, tool) => sum + tool.compactedTokens, 0);
  return {
    tokenizer: tokenizer.id,
    system: { tokens: systemTokens },
    tools: [...tools].sort((a, b) => b.tokens - a.tokens || a.index - b.index),
    toolsTotal: savings(toolTokens, compactedToolTokens),
    floor: savings(systemTokens + toolTokens, systemTokens + compactedToolTokens),
    compacted: compaction.tools,
    warnings: compaction.warnings,
  };
}
