import type { CompactionWarning } from './compaction-warning.ts';
import { compactionWarning, defaultWarningHandler } from './compaction-warning.ts';
import { type CompactSchemaOptions, compactSchemaChecked } from './compact-tool-schema.ts';
import { CtxkitError } from '@ctxkit/core';
import { collapseWhitespace, compactDataBlocks, stripEmphasis, tidyWhitespace } from './description-text.ts';
import { moveDocstringArgs } from './docstring-args.ts';
import { firstSentence, sentenceStarts } from './first-sentence.ts';
import { isRecord } from './schema-keywords.ts';
import { describeSharedParametersOnce, minToolsSharing, type SharedParameter } from './shared-parameters.ts';
import { type ToolDefinition, type ToolShape, toolParts, toolShape, withToolParts } from './tool-shapes.ts';

/** Options for {@link compactTools}. */
export interface CompactToolsOptions extends CompactSchemaOptions {
  /**
   * Trim tool descriptions to their first sentence too. Off by default: a tool's description tells the
   * model when to use it; measure with `compareToolChoice` before turning this on. @default false
   */
  trimToolDescriptions?: boolean;
  /**
   * Tidy white space in tool descriptions kept whole (trailing spaces and newlines, runs of spaces,
   * extra blank lines, the layout inside a fenced JSON block: see `compactDataBlocks`); line breaks,
   * indentation and markup of the text stay. @default true
   */
  tidyToolDescriptions?: boolean;
  /**
   * Say a repeated closing once: when every compacted tool's description (at least three) ends with the
   * same sentences ("Note that the provided function is in Python 3 syntax."), the first tool keeps them
   * and the rest drop them; `sharedEnding` reports what was moved. It looks at the whole list, so adding
   * a tool without that ending brings it back on every tool (a new cached prefix); fix the list, or turn
   * this off, when tools come and go between requests. @default true
   */
  dedupeSharedEnding?: boolean;
  /**
   * Leave out the optional MCP tool fields a client sent as `null` (`"annotations": null`, `"title": null`,
   * a hint such as `"destructiveHint": null` inside `annotations`), as Python clients dumping `tools/list`
   * do: the MCP schema defines no `null` for them, and readers treat null and absent alike. Fields with a
   * value always stay. MCP shape only. @default true
   */
  dropNullMcpFields?: boolean;
  /**
   * Leave out the MCP annotation hints that say what a client assumes anyway, read by the MCP schema's
   * defaults or read as "absent is false": `readOnlyHint: false`, `idempotentHint: false`, and
   * `destructiveHint: false` on a tool with `readOnlyHint: true` (the schema gives it meaning only when
   * `readOnlyHint` is false); an `annotations` object left empty goes too. `destructiveHint: true` and
   * `openWorldHint: true` are defaults as well but stay: a host that asks before a call when
   * `destructiveHint === true` would stop asking without them. Also `execution.taskSupport: "forbidden"`,
   * the default (the MCP TypeScript SDK writes it on every tool), and an `execution` left empty. MCP shape
   * only. @default true
   */
  dropDefaultMcpHints?: boolean;
  /**
   * Compact an MCP tool's `outputSchema` by the same rules as its input schema: what `structuredContent`
   * must match stays the same. An invalid one stays as it is, with a warning. MCP shape only. @default true
   */
  compactOutputSchemas?: boolean;
  /**
   * Describe a parameter once across the list: where three or more tools declare the same top-level
   * parameter word for word (name, schema and description: `owner`, "Repository owner", on 40 tools), the
   * first keeps its description and the rest drop it; `sharedParameters` reports what was shared. Off by
   * default: the model must read the tools as one list, so a host that shows only some of them (tool search,
   * `deferTools` over compacted tools) would show a parameter without its description. @default false
   */
  dedupeSharedParameters?: boolean;
  /**
   * Move a docstring's argument section onto the parameters it documents: where a tool description holds
   * Google-style `Args:` lines (`name: text`, the MCP Python SDK and FastMCP copy the function's whole
   * docstring) and the parameters have no description, each entry becomes its parameter's description,
   * compacted like the others, and the section leaves the tool description. Only when every entry names a
   * top-level parameter that has no other description (see `moveDocstringArgs`). @default true
   */
  moveDocstringArgs?: boolean;
  /**
   * Say an MCP tool's display name once: a tool-level `title` equal to its `annotations.title` is left out.
   * MCP (2025-06-18) shows `title`, else `annotations.title`, else `name`, and clients older than that
   * read only `annotations.title`, so every client shows the same name. A `title` that differs stays.
   * MCP shape only. @default true
   */
  dropDuplicateTitle?: boolean;
}

/** What {@link compactToolsChecked} did, tool by tool. */
export interface ToolsCompaction<Tool> {
  tools: Tool[];
  /** For each tool: compacted, passed through (invalid), or left alone (a provider-defined tool has nothing to compact). */
  outcomes: ('compacted' | 'passed-through' | 'provider-defined')[];
  /** Indices of tools whose root `$schema` was dropped. */
  droppedDialect: number[];
  /** The closing sentences every description repeated, now kept on the first tool only (`dedupeSharedEnding`). */
  sharedEnding?: string;
  /** The parameters several tools declared word for word, now described on the first only (`dedupeSharedParameters`). */
  sharedParameters?: SharedParameter[];
  warnings: CompactionWarning[];
}

function compactToolDescription(description: string, options: CompactToolsOptions): string {
  if (options.trimToolDescriptions) return collapseWhitespace(stripEmphasis(firstSentence(description)));
  return tidyToolDescription(description, options);
}

/** A tool description kept whole, tidied (`tidyToolDescriptions`); a trimmed one is already one line. */
function tidyToolDescription(description: string, options: CompactToolsOptions): string {
  if (options.trimToolDescriptions || options.tidyToolDescriptions === false) return description;
  return compactDataBlocks(tidyWhitespace(description));
}

/**
 * `compactTools`, returning warnings and per-tool outcomes instead of calling `onWarning`.
 * @throws CtxkitError INVALID_ARGUMENT when `tools` is not an array; SCHEMA_ERROR for an invalid
 * tool when `onInvalid` is `'throw'`
 */
export function compactToolsChecked<Tool>(tools: readonly Tool[], options: CompactToolsOptions = {}): ToolsCompaction<Tool> {
  if (!Array.isArray(tools)) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'schema',
      message: `compactTools takes an array of tools, got ${tools === null ? 'null' : typeof tools}; for a tools/list result or a request body, use normalizeToolsInput first`,
    });
  }
  const result: ToolsCompaction<Tool> = { tools: [], outcomes: [], droppedDialect: [], warnings: [] };
  tools.forEach((original, toolIndex) => {
    const tool: unknown = original;
    const shape = toolShape(tool);
    const passThrough = (problem: string, toolName?: string) => {
      if (options.onInvalid === 'throw') {
        throw new CtxkitError({ code: 'SCHEMA_ERROR', source: 'schema', message: `tool ${toolIndex}${toolName === undefined ? '' : ` (${JSON.stringify(toolName)})`}: ${problem}` });
      }
      result.warnings.push(compactionWarning({ toolIndex, ...(toolName === undefined ? {} : { toolName }), path: '', problem, action: 'passed-through' }));
      result.tools.push(original);
      result.outcomes.push('passed-through');
    };
    if (shape === undefined || !isRecord(tool)) {
      passThrough('is not a tool definition: expected { name, inputSchema } (MCP), { type: "function", function } (OpenAI) or { name, input_schema } (Anthropic)');
      return;
    }
    if (shape === 'provider-defined') {
      result.tools.push(original);
      result.outcomes.push('provider-defined');
      return;
    }
    const parts = toolParts(tool, shape);
    const toolName = typeof parts.name === 'string' ? parts.name : undefined;
    if (toolName === undefined) {
      passThrough(`has no string name (${shape} shape)`);
      return;
    }
    if (parts.description !== undefined && parts.description !== null && typeof parts.description !== 'string') {
      passThrough(`description must be a string, got ${typeof parts.description}`, toolName);
      return;
    }
    let schema = parts.schema;
    let toolDescription = parts.description;
    if ((options.moveDocstringArgs ?? true) && typeof toolDescription === 'string' && parts.hasSchema) {
      const moved = moveDocstringArgs(toolDescription, schema);
      if (moved !== undefined) ({ description: toolDescription, schema } = moved);
    }
    if (parts.hasSchema) {
      const compaction = compactSchemaChecked(schema, isStrict(tool, shape) ? { ...options, dropEmptyRequired: false } : options, { toolIndex, toolName });
      result.warnings.push(...compaction.warnings);
      if (!compaction.compacted) {
        result.tools.push(original);
        result.outcomes.push('passed-through');
        return;
      }
      schema = compaction.schema;
      if (compaction.droppedDialect) result.droppedDialect.push(toolIndex);
    }
    const description = typeof toolDescription === 'string' ? compactToolDescription(toolDescription, options) : toolDescription;
    const compacted = withToolParts(tool, shape, { description, schema, hasSchema: parts.hasSchema });
    if (shape === 'mcp' && (options.compactOutputSchemas ?? true) && isRecord(compacted.outputSchema)) {
      compacted.outputSchema = compactOutputSchema(compacted.outputSchema, options, { toolIndex, toolName }, result.warnings);
    }
    result.tools.push((shape === 'mcp' ? withoutVacuousMcpFields(compacted, options) : compacted) as Tool);
    result.outcomes.push('compacted');
  });
  if (options.dedupeSharedEnding ?? true) sayEndingOnce(result, options);
  if (options.dedupeSharedParameters) describeParametersOnce(result);
  return result;
}

/**
 * An MCP tool's `outputSchema`, compacted by the input schema's rules (what `structuredContent` must match
 * stays the same); an invalid one is kept as it is, with a warning, or throws under `onInvalid: 'throw'`.
 */
function compactOutputSchema(outputSchema: Record<string, unknown>, options: CompactToolsOptions, where: { toolIndex: number; toolName: string }, warnings: CompactionWarning[]): unknown {
  const compaction = compactSchemaChecked(outputSchema, { ...options, onInvalid: 'warn' }, where);
  const [first] = compaction.warnings;
  if (!compaction.compacted && options.onInvalid === 'throw' && first !== undefined) {
    throw new CtxkitError({ code: 'SCHEMA_ERROR', source: 'schema', message: `tool ${where.toolIndex} (${JSON.stringify(where.toolName)}): outputSchema cannot be compacted: ${first.problem}` });
  }
  warnings.push(...compaction.warnings.map(({ message: _message, problem, ...fields }) => compactionWarning({ ...fields, problem: `outputSchema: ${problem}` })));
  return compaction.schema;
}

/** An OpenAI tool in strict mode (Chat's `function.strict`, Responses' `strict`), whose schema rules are stricter. */
function isStrict(tool: Record<string, unknown>, shape: ToolShape): boolean {
  if (shape !== 'openai' && shape !== 'openai-responses') return false;
  const holder = shape === 'openai' && isRecord(tool.function) ? tool.function : tool;
  return holder.strict === true;
}

// The optional fields of an MCP Tool and of its ToolAnnotations (MCP schema 2025-06-18; `execution` since 2025-11-25); `name`,
// `description` and `inputSchema` are compaction's own and never dropped here.
const optionalMcpFields = new Set(['title', 'outputSchema', 'annotations', 'execution', '_meta', 'icons']);
const optionalAnnotationFields = new Set(['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);

/** The MCP tool without the optional fields it set to null, the hints that restate a default and a title said twice (a copy). */
function withoutVacuousMcpFields(tool: Record<string, unknown>, options: CompactToolsOptions): Record<string, unknown> {
  const dropNull = options.dropNullMcpFields ?? true;
  const dropDefaults = options.dropDefaultMcpHints ?? true;
  const dropTitle = options.dropDuplicateTitle ?? true;
  if (!dropNull && !dropDefaults && !dropTitle) return tool;
  // Built from entries, so a field named `__proto__` stays data.
  const out: [string, unknown][] = [];
  for (const [field, value] of Object.entries(tool)) {
    if (dropNull && value === null && optionalMcpFields.has(field)) continue;
    if (dropTitle && field === 'title' && typeof value === 'string' && isRecord(tool.annotations) && tool.annotations.title === value) continue;
    if (field === 'annotations' && isRecord(value)) {
      const hints = Object.entries(value).filter(([hint, hintValue]) => {
        if (dropNull && hintValue === null && optionalAnnotationFields.has(hint)) return false;
        return !(dropDefaults && restatesDefault(hint, hintValue, value));
      });
      if (dropDefaults && hints.length === 0) continue;
      out.push([field, Object.fromEntries(hints)]);
      continue;
    }
    // `execution.taskSupport` defaults to "forbidden" (MCP 2025-11-25): a tool that says only that says nothing.
    if (field === 'execution' && dropDefaults && isRecord(value)) {
      const rest = Object.entries(value).filter(([key, inner]) => !(key === 'taskSupport' && inner === 'forbidden'));
      if (rest.length > 0) out.push([field, rest.length === Object.keys(value).length ? value : Object.fromEntries(rest)]);
      continue;
    }
    out.push([field, value]);
  }
  return Object.fromEntries(out);
}

/**
 * Whether a hint reads the same absent, both by the MCP schema's defaults and to a host that takes absent
 * as false: `readOnlyHint` and `idempotentHint` default to false; `destructiveHint` only means something
 * when `readOnlyHint` is false, and `false` is what a host taking absent as false reads.
 */
function restatesDefault(hint: string, value: unknown, annotations: Record<string, unknown>): boolean {
  if (value !== false) return false;
  if (hint === 'readOnlyHint' || hint === 'idempotentHint') return true;
  return hint === 'destructiveHint' && annotations.readOnlyHint === true;
}

/** The closing sentences every description ends with, leaving each a sentence of its own; longest first. */
function sharedEnding(descriptions: readonly string[]): string | undefined {
  if (descriptions.length < minToolsSharing) return undefined;
  const [first, ...rest] = descriptions as [string, ...string[]];
  // Where each other description may be cut: at a sentence start, never its first.
  const cuts = rest.map((description) => new Set(sentenceStarts(description).slice(1)));
  for (const start of sentenceStarts(first).slice(1)) {
    const ending = first.slice(start);
    if (rest.every((description, index) => description.endsWith(ending) && cuts[index]!.has(description.length - ending.length))) return ending;
  }
  return undefined;
}

/**
 * The set-wide step on compacted tool descriptions: a closing every one repeats is said once. The text before
 * it is tidied again without it: a closing appended flush left to indented template literals hid the
 * indentation they share from `tidyWhitespace`, so that indentation goes only once the closing is cut off (the
 * first tool keeps its closing after its tidied text).
 */
function sayEndingOnce<Tool>(result: ToolsCompaction<Tool>, options: CompactToolsOptions): void {
  const compacted = result.tools.flatMap((tool, index) => {
    if (result.outcomes[index] !== 'compacted') return [];
    const shape = toolShape(tool)!;
    const parts = toolParts(tool as Record<string, unknown>, shape);
    return typeof parts.description === 'string' ? [{ index, tool: tool as Record<string, unknown>, shape, parts, description: parts.description }] : [];
  });
  // Every compacted tool must carry the ending: one without a description never said it.
  const everyDescribed = compacted.length === result.outcomes.filter((outcome) => outcome === 'compacted').length;
  const ending = everyDescribed ? sharedEnding(compacted.map(({ description }) => description)) : undefined;
  if (ending === undefined) return;
  result.sharedEnding = ending;
  compacted.forEach(({ index, tool, shape, parts, description }, position) => {
    const before = description.slice(0, -ending.length);
    const body = tidyToolDescription(before.trimEnd(), options);
    // The first tool says the closing, after the white space that separated it.
    const text = position === 0 ? body + before.slice(before.trimEnd().length) + ending : body;
    if (text === description) return;
    result.tools[index] = withToolParts(tool, shape, { description: text, schema: parts.schema, hasSchema: parts.hasSchema }) as Tool;
  });
}

/** The set-wide step on compacted input schemas: a parameter many tools declare alike is described once. */
function describeParametersOnce<Tool>(result: ToolsCompaction<Tool>): void {
  const schemas = result.tools.map((tool, index) => {
    if (result.outcomes[index] !== 'compacted') return undefined;
    const parts = toolParts(tool as Record<string, unknown>, toolShape(tool)!);
    return parts.hasSchema ? parts.schema : undefined;
  });
  const { schemas: described, shared } = describeSharedParametersOnce(schemas);
  if (shared.length === 0) return;
  result.sharedParameters = shared;
  described.forEach((schema, index) => {
    if (schema === schemas[index]) return;
    const tool = result.tools[index] as Record<string, unknown>;
    const shape = toolShape(tool)!;
    const parts = toolParts(tool, shape);
    result.tools[index] = withToolParts(tool, shape, { description: parts.description, schema, hasSchema: true }) as Tool;
  });
}

/**
 * Compacts a list of tool definitions without changing what their input schemas accept: each tool's
 * schema goes through `compactToolSchema`; tool descriptions are kept whole (white space tidied;
 * closing sentences every tool repeats said once, on the first tool, see `dedupeSharedEnding`) unless
 * `trimToolDescriptions` is set. Each tool comes back in the shape it came in (MCP,
 * OpenAI Chat or Responses, Anthropic, bare function declaration); hosted tools without a schema and
 * every field compaction does not know (`annotations`, `cache_control`, `strict`) pass through, except
 * optional MCP fields sent as `null` (see `dropNullMcpFields`) and MCP hints that restate a default
 * (see `dropDefaultMcpHints`). The
 * input is never mutated. A tool that cannot be compacted safely is returned unchanged with a warning.
 *
 * Gotcha: with OpenAI `strict: true`, the schema must keep following OpenAI's strict-mode rules;
 * compaction only removes annotations, so a strict schema stays strict.
 * @throws CtxkitError INVALID_ARGUMENT when `tools` is not an array; SCHEMA_ERROR for an invalid
 * tool when `onInvalid` is `'throw'`
 * @example
 * ```ts
 * import { compactTools } from '@ctxkit/schema';
 *
 * const { tools } = await client.listTools();        // MCP
 * const compact = compactTools(tools);                // same shape, fewer tokens on every step
 * const aggressive = compactTools(tools, { trimToolDescriptions: true });
 * ```
 */
export function compactTools<Tool extends ToolDefinition | Record<string, unknown>>(tools: readonly Tool[], options: CompactToolsOptions = {}): Tool[] {
  const result = compactToolsChecked(tools, options);
  const report = options.onWarning ?? defaultWarningHandler;
  for (const warning of result.warnings) report(warning);
  return result.tools;
}
