import { CtxkitError } from '@ctxkit/core';
import { isRecord } from './schema-keywords.ts';
import { type ToolDefinition, type ToolShape, toolShape } from './tool-shapes.ts';

/** Where a tool list was found in the input, so the same container can be written back. */
export type ToolsContainer =
  /** A bare array of tools. */
  | 'array'
  /** An object with a `tools` array: an MCP `tools/list` result, an OpenAI or Anthropic request body. */
  | 'tools-field'
  /** A JSON-RPC response whose `result` holds the `tools` array (a recorded MCP exchange). */
  | 'json-rpc';

/** The tools found in some input, and how to put compacted ones back in the same place. */
export interface NormalizedTools {
  tools: ToolDefinition[];
  /** The shape of the tools that have a schema; `mixed` when they differ; undefined for a list without any. */
  shape: Exclude<ToolShape, 'provider-defined'> | 'mixed' | undefined;
  container: ToolsContainer;
  /** The input with its tools replaced (other fields, such as `model` or `messages`, kept); the input is not changed. */
  wrap(tools: readonly unknown[]): unknown;
}

const expected = 'expected an array of tools, an MCP tools/list result ({ tools: [...] }), a JSON-RPC response holding one, or a request body with a tools array';

function fail(message: string, cause?: unknown): never {
  throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message, cause });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isRecord(value)) return `an object with keys ${Object.keys(value).slice(0, 6).join(', ') || '(none)'}`;
  return typeof value;
}

/**
 * Finds the tool definitions in what a user hands the `ctxkit schema-bench` command or a host hands
 * compaction: a bare array (MCP, OpenAI, Anthropic shapes, mixed allowed), an MCP `tools/list`
 * result `{ tools }`, a JSON-RPC response `{ result: { tools } }`, or an OpenAI / Anthropic request
 * body `{ model, tools: [...] }`. JSON text is parsed first. Returns the tools, their shape, and a
 * `wrap` that puts a compacted list back in the same container.
 * @throws CtxkitError INVALID_ARGUMENT naming what was found instead, or the index of the first entry that is not a tool
 * @example
 * ```ts
 * const { tools, shape, wrap } = normalizeToolsInput(JSON.parse(await readFile('request.json', 'utf8')));
 * const smaller = wrap(compactTools(tools)); // the same request body, with compacted tools
 * ```
 */
export function normalizeToolsInput(input: unknown): NormalizedTools {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (error) {
      fail(`the tools input is not valid JSON (${(error as Error).message})`, error);
    }
  }
  let tools: unknown;
  let container: ToolsContainer;
  let wrap: (tools: readonly unknown[]) => unknown;
  if (Array.isArray(value)) {
    tools = value;
    container = 'array';
    wrap = (replacement) => [...replacement];
  } else if (isRecord(value) && 'tools' in value) {
    tools = value.tools;
    container = 'tools-field';
    const outer = value;
    wrap = (replacement) => ({ ...outer, tools: [...replacement] });
  } else if (isRecord(value) && isRecord(value.result) && 'tools' in value.result) {
    tools = value.result.tools;
    container = 'json-rpc';
    const outer = value;
    const result = value.result;
    wrap = (replacement) => ({ ...outer, result: { ...result, tools: [...replacement] } });
  } else if (isRecord(value) && value.jsonrpc !== undefined && value.error !== undefined) {
    const error = isRecord(value.error) ? value.error : {};
    const detail = [error.code, error.message].filter((part) => part !== undefined).join(' ');
    fail(`the input is a JSON-RPC error response${detail === '' ? '' : ` (${detail})`}, not a tools/list result`);
  } else if (toolShape(value) !== undefined && toolShape(value) !== 'provider-defined') {
    fail('the input is a single tool definition; wrap it in an array: [tool]');
  } else {
    fail(`${expected}; got ${describe(value)}`);
  }
  if (!Array.isArray(tools)) fail(`the tools field must be an array, got ${describe(tools)}`);
  const shapes = new Set<Exclude<ToolShape, 'provider-defined'>>();
  tools.forEach((tool: unknown, index) => {
    const shape = toolShape(tool);
    if (shape === undefined) {
      fail(
        `tools[${index}] is not a tool definition (${describe(tool)}): expected { name, inputSchema } (MCP), { type: "function", function: { name, parameters } } (OpenAI), { name, input_schema } (Anthropic), or a hosted tool with a type`,
      );
    }
    if (shape !== 'provider-defined') shapes.add(shape);
  });
  const shape = shapes.size === 0 ? undefined : shapes.size === 1 ? [...shapes][0] : 'mixed';
  return { tools: tools as ToolDefinition[], shape, container, wrap };
}
