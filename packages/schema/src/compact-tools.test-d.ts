import { describe, expectTypeOf, it } from 'vitest';
import { compactToolSchema } from './compact-tool-schema.ts';
import { compactTools } from './compact-tools.ts';
import { normalizeToolsInput } from './normalize-tools-input.ts';
import { schemaBench } from './bench/schema-bench.ts';
import type { AnthropicTool, McpTool, OpenAIChatTool, ToolDefinition } from './tool-shapes.ts';

describe('compactTools types', () => {
  it('returns the element type it was given', () => {
    expectTypeOf(compactTools([] as McpTool[])).toEqualTypeOf<McpTool[]>();
    expectTypeOf(compactTools([] as OpenAIChatTool[])).toEqualTypeOf<OpenAIChatTool[]>();
    expectTypeOf(compactTools([] as (McpTool | AnthropicTool)[])).toEqualTypeOf<(McpTool | AnthropicTool)[]>();
    expectTypeOf(compactTools(normalizeToolsInput([]).tools)).toEqualTypeOf<ToolDefinition[]>();
  });

  it('rejects what is not a list of objects', () => {
    // @ts-expect-error a list of strings is not a list of tools
    compactTools(['read_file']);
    // @ts-expect-error one tool is not a list
    compactTools({ name: 'read', inputSchema: {} });
  });

  it('types the schema and the bench report', () => {
    expectTypeOf(compactToolSchema({ type: 'object' as const })).toEqualTypeOf<{ type: 'object' }>();
    expectTypeOf(schemaBench).returns.resolves.toHaveProperty('floor');
  });
});
