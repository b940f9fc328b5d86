import { describe, expect, it } from 'vitest';
import { normalizeToolsInput } from './normalize-tools-input.ts';

const mcp = { name: 'read', description: 'Reads.', inputSchema: { type: 'object' } };
const openai = { type: 'function', function: { name: 'read', parameters: { type: 'object' } } };
const anthropic = { name: 'read', input_schema: { type: 'object' } };

describe('normalizeToolsInput', () => {
  it('accepts an array of tools in any shape', () => {
    expect(normalizeToolsInput([mcp, mcp])).toMatchObject({ tools: [mcp, mcp], shape: 'mcp', container: 'array' });
    expect(normalizeToolsInput([openai]).shape).toBe('openai');
    expect(normalizeToolsInput([anthropic]).shape).toBe('anthropic');
    expect(normalizeToolsInput([mcp, anthropic]).shape).toBe('mixed');
    expect(normalizeToolsInput([]).shape).toBeUndefined();
  });

  it('accepts an MCP tools/list result and its JSON-RPC envelope', () => {
    const listResult = { tools: [mcp], nextCursor: 'abc' };
    expect(normalizeToolsInput(listResult)).toMatchObject({ tools: [mcp], shape: 'mcp', container: 'tools-field' });
    const envelope = { jsonrpc: '2.0', id: 1, result: listResult };
    const normalized = normalizeToolsInput(envelope);
    expect(normalized).toMatchObject({ tools: [mcp], container: 'json-rpc' });
    expect(normalized.wrap([anthropic])).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [anthropic], nextCursor: 'abc' } });
    expect(envelope.result.tools).toEqual([mcp]);
  });

  it('accepts an OpenAI request body and writes it back with the other fields', () => {
    const body = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], tools: [openai, { type: 'web_search_preview' }] };
    const normalized = normalizeToolsInput(JSON.stringify(body));
    expect(normalized).toMatchObject({ shape: 'openai', container: 'tools-field' });
    expect(normalized.tools).toHaveLength(2);
    expect(normalized.wrap([])).toEqual({ ...body, tools: [] });
  });

  it.each([
    ['JSON that does not parse', '{"tools": [', /the tools input is not valid JSON/],
    ['a number', 42, /expected an array of tools, .*; got number/],
    ['an object without tools', { model: 'x' }, /got an object with keys model/],
    ['a tools field that is not an array', { tools: { read: mcp } }, /the tools field must be an array, got an object with keys read/],
    ['a single tool', mcp, /a single tool definition; wrap it in an array/],
    ['a JSON-RPC error', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }, /JSON-RPC error response \(-32601 Method not found\)/],
    ['an entry that is not a tool', [mcp, { foo: 1 }], /tools\[1\] is not a tool definition \(an object with keys foo\)/],
  ])('rejects %s with a clear error', (_what, input, message) => {
    expect(() => normalizeToolsInput(input)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^\[ctxkit:schema\] /) }));
    expect(() => normalizeToolsInput(input)).toThrow(message);
  });
});
