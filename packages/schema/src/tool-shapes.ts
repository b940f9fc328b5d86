import { isRecord } from './schema-keywords.ts';

/** A JSON Schema: an object of keywords, or `true` / `false`. */
export type JsonSchema = boolean | { [keyword: string]: unknown };

/** An MCP tool, as `tools/list` returns it (also the shape of the shared corpus). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  [field: string]: unknown;
}

/** A tool in an OpenAI Chat Completions request. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean | null; [field: string]: unknown };
  [field: string]: unknown;
}

/** A function tool in an OpenAI Responses request (flat, no `function` wrapper). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: JsonSchema | null;
  strict?: boolean | null;
  [field: string]: unknown;
}

/** A client tool in an Anthropic Messages request. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonSchema;
  [field: string]: unknown;
}

/** A bare function declaration: OpenAI's legacy `functions` entries, Gemini's `functionDeclarations`. */
export interface FunctionDeclaration {
  name: string;
  description?: string;
  parameters?: JsonSchema;
  [field: string]: unknown;
}

/** Any tool definition compaction understands. */
export type ToolDefinition = McpTool | OpenAIChatTool | OpenAIResponsesTool | AnthropicTool | FunctionDeclaration;

/**
 * The shape a tool came in; compaction returns each tool in its own shape. `provider-defined` is a
 * hosted tool with no schema of its own (OpenAI `web_search`, Anthropic `bash_20250124`): passed through.
 */
export type ToolShape = 'mcp' | 'openai' | 'openai-responses' | 'anthropic' | 'function-declaration' | 'provider-defined';

/**
 * The shape of one tool definition, or undefined when it is none of them.
 * @example toolShape({ type: 'function', function: { name: 'f', parameters: {} } }) // 'openai'
 */
export function toolShape(tool: unknown): ToolShape | undefined {
  if (!isRecord(tool)) return undefined;
  if (tool.type === 'function' && isRecord(tool.function)) return 'openai';
  if ('input_schema' in tool) return 'anthropic';
  if ('inputSchema' in tool) return 'mcp';
  if (tool.type === 'function' && typeof tool.name === 'string') return 'openai-responses';
  if (typeof tool.type === 'string') return 'provider-defined';
  if (typeof tool.name === 'string' && ('parameters' in tool || 'description' in tool)) return 'function-declaration';
  return undefined;
}

/** What compaction reads from a tool, whatever its shape. */
export interface ToolParts {
  name: unknown;
  description: unknown;
  /** The input schema; `hasSchema` false when the tool has none (OpenAI makes `parameters` optional). */
  schema: unknown;
  hasSchema: boolean;
}

/** The name, description and input schema of a tool of a known shape. */
export function toolParts(tool: Record<string, unknown>, shape: ToolShape): ToolParts {
  const holder = shape === 'openai' ? (tool.function as Record<string, unknown>) : tool;
  const key = schemaKey(shape);
  return {
    name: holder.name,
    description: holder.description,
    schema: key === undefined ? undefined : holder[key],
    hasSchema: key !== undefined && holder[key] !== undefined && holder[key] !== null,
  };
}

function schemaKey(shape: ToolShape): string | undefined {
  switch (shape) {
    case 'mcp':
      return 'inputSchema';
    case 'anthropic':
      return 'input_schema';
    case 'provider-defined':
      return undefined;
    default:
      return 'parameters';
  }
}

/** A copy of the tool, in the same shape, with a new description and schema; other fields are kept. */
export function withToolParts(tool: Record<string, unknown>, shape: ToolShape, parts: { description: unknown; schema: unknown; hasSchema: boolean }): Record<string, unknown> {
  const holder = shape === 'openai' ? (tool.function as Record<string, unknown>) : tool;
  const updated: Record<string, unknown> = { ...holder };
  if (parts.description === undefined) delete updated.description;
  else updated.description = parts.description;
  const key = schemaKey(shape);
  if (key !== undefined && parts.hasSchema) updated[key] = parts.schema;
  return shape === 'openai' ? { ...tool, function: updated } : updated;
}
