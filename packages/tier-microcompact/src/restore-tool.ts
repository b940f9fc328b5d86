/** A JSON Schema object, as tool definitions carry it. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A tool definition in a provider-neutral shape: what every provider's tool format is made from. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of the tool's input (an object). */
  readonly inputSchema: JsonSchema;
}

/**
 * The `restore_tool_result` tool: add it to the agent's tools so the model can get back any tool result
 * that microcompaction archived, by the handle its stub names. Answer calls with {@link createRestoreHandler}.
 * The schema is strict-mode ready (every property required, no additional properties).
 * @example
 * ```ts
 * const tools = [...myTools, toOpenAITool(restoreToolResultTool)];
 * const restore = createRestoreHandler(store);
 * if (call.name === restoreToolResultTool.name) output = await restore(call.arguments);
 * ```
 */
export const restoreToolResultTool = {
  name: 'restore_tool_result',
  description:
    'Get back the full output of an earlier tool call that was archived to save context space. ' +
    'Archived outputs appear in the conversation as stubs such as ' +
    '[tool result 7 archived: read_file src/app.ts, 12,480 tokens; restore with restore_tool_result("r7")]. ' +
    'Pass the handle from the stub ("r7"). Restore only when you need the exact text again (calling the ' +
    'tool again may give a newer result); the restored output counts against the context window.',
  inputSchema: {
    type: 'object',
    properties: {
      handle: { type: 'string', description: 'The handle named in the stub, such as "r7".' },
    },
    required: ['handle'],
    additionalProperties: false,
  },
} as const satisfies ToolDefinition;

/** A tool in the OpenAI Chat Completions `tools` array. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict: boolean };
}

/** A tool in the OpenAI Responses API `tools` array. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** A tool in the Anthropic Messages API `tools` array. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** A function declaration in a Gemini `tools[].functionDeclarations` array. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: JsonSchema;
}

/**
 * A neutral tool definition in OpenAI Chat Completions form (`{ type: 'function', function: {...} }`).
 * `strict` is always written out, so the request does not depend on the server's default.
 * @default strict false: pass `{ strict: true }` only for schemas that meet OpenAI's strict-mode rules
 * (restoreToolResultTool does)
 */
export function toOpenAITool(tool: ToolDefinition, options: { strict?: boolean } = {}): OpenAIChatTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: options.strict ?? false } };
}

/**
 * A neutral tool definition in OpenAI Responses API form (`{ type: 'function', name, parameters, strict }`).
 * @default strict false
 */
export function toOpenAIResponsesTool(tool: ToolDefinition, options: { strict?: boolean } = {}): OpenAIResponsesTool {
  return { type: 'function', name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: options.strict ?? false };
}

/** A neutral tool definition in Anthropic Messages form (`{ name, description, input_schema }`). */
export function toAnthropicTool(tool: ToolDefinition): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
}

/** A neutral tool definition as a Gemini function declaration (`parametersJsonSchema` takes plain JSON Schema). */
export function toGeminiFunctionDeclaration(tool: ToolDefinition): GeminiFunctionDeclaration {
  return { name: tool.name, description: tool.description, parametersJsonSchema: tool.inputSchema };
}
