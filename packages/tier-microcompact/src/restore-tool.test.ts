import { describe, expect, it } from 'vitest';
import { restoreToolResultTool, toAnthropicTool, toGeminiFunctionDeclaration, toOpenAIResponsesTool, toOpenAITool } from './restore-tool.ts';

describe('restoreToolResultTool', () => {
  it('is a tool named restore_tool_result taking { handle: string }', () => {
    expect(restoreToolResultTool.name).toBe('restore_tool_result');
    expect(restoreToolResultTool.inputSchema).toEqual({
      type: 'object',
      properties: { handle: { type: 'string', description: 'The handle named in the stub, such as "r7".' } },
      required: ['handle'],
      additionalProperties: false,
    });
  });

  it('describes the stub the model will see, with the same handle form the tier writes', () => {
    expect(restoreToolResultTool.description).toContain('[tool result 7 archived: read_file src/app.ts, 12,480 tokens; restore with restore_tool_result("r7")]');
  });

  it('meets OpenAI strict mode: every property required, no additional properties', () => {
    const schema = restoreToolResultTool.inputSchema;
    expect([...schema.required].sort()).toEqual(Object.keys(schema.properties).sort());
    expect(schema.additionalProperties).toBe(false);
  });
});

describe('provider shapes', () => {
  it('converts to OpenAI Chat Completions, Responses, Anthropic and Gemini tools', () => {
    const { name, description, inputSchema } = restoreToolResultTool;
    expect(toOpenAITool(restoreToolResultTool, { strict: true })).toEqual({ type: 'function', function: { name, description, parameters: inputSchema, strict: true } });
    expect(toOpenAITool(restoreToolResultTool).function.strict).toBe(false);
    expect(toOpenAIResponsesTool(restoreToolResultTool, { strict: true })).toEqual({ type: 'function', name, description, parameters: inputSchema, strict: true });
    expect(toAnthropicTool(restoreToolResultTool)).toEqual({ name, description, input_schema: inputSchema });
    expect(toGeminiFunctionDeclaration(restoreToolResultTool)).toEqual({ name, description, parametersJsonSchema: inputSchema });
  });
});
