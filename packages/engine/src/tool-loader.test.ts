import { CtxkitError, type Message } from '@ctxkit/core';
import { tiktokenCounter } from '@ctxkit/tokens';
import { describe, expect, it } from 'vitest';
import { createContextManager } from './context-manager.ts';
import type { ToolLoader, ToolLoading } from './tool-loader.ts';

const tool = (name: string, words = 5) => ({ name, description: `${name} ${'does a thing with a long explanation '.repeat(words)}`, inputSchema: { type: 'object' } });
const allTools = Array.from({ length: 40 }, (_, index) => tool(`tool_${index}`, 30));
const searchTool = tool('search_tools');

/** A loader that loads every tool the transcript calls, after the search tool (the shape deferTools fulfils). */
function callingLoader(): ToolLoader & { calls: number } {
  const loaded: string[] = [];
  const loader = {
    calls: 0,
    toolsFor(messages: readonly Message[]): ToolLoading {
      loader.calls++;
      for (const message of messages) {
        if (message.role !== 'assistant') continue;
        for (const call of message.toolCalls ?? []) if (call.name !== 'search_tools' && !loaded.includes(call.name)) loaded.push(call.name);
      }
      const tools = [searchTool, ...loaded.map((name) => allTools.find((entry) => entry.name === name)!)];
      return { tools, deferred: allTools.map((entry) => entry.name).filter((name) => !loaded.includes(name)), found: [...loaded], loaded: [...loaded] };
    },
  };
  return loader;
}

const transcript = (calls: string[]): Message[] => [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'Do the task.' },
  ...calls.flatMap((name, index): Message[] => [
    { role: 'assistant', content: '', toolCalls: [{ id: `c${index}`, name, arguments: '{}' }] },
    { role: 'tool', toolCallId: `c${index}`, content: 'done' },
  ]),
];

describe('toolLoader', () => {
  it('returns the loader’s tool list with the request and reports what was deferred, found and loaded', async () => {
    const loader = callingLoader();
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, tools: allTools, toolLoader: loader, plugins: [tiktokenCounter('o200k_base')] });
    const first = await manager.prepare(transcript([]));
    expect(first.tools).toEqual([searchTool]);
    expect(first.report.tools).toMatchObject({ sent: 1, found: [], loaded: [] });
    expect(first.report.tools?.deferred).toHaveLength(40);

    const later = await manager.prepare(transcript(['tool_3', 'tool_7']));
    expect(later.tools?.map((entry) => (entry as { name: string }).name)).toEqual(['search_tools', 'tool_3', 'tool_7']);
    expect(later.report.tools).toMatchObject({ sent: 3, loaded: ['tool_3', 'tool_7'] });
    expect(later.report.tools?.deferred).not.toContain('tool_3');
  });

  it('measures the floor with the tools actually sent, not the whole set', async () => {
    const messages = transcript([]);
    const whole = await createContextManager({ model: 'm', contextWindow: 200_000, tools: allTools, plugins: [tiktokenCounter('o200k_base')] }).prepare(messages);
    const deferred = await createContextManager({ model: 'm', contextWindow: 200_000, tools: allTools, toolLoader: callingLoader(), plugins: [tiktokenCounter('o200k_base')] }).prepare(messages);
    expect(whole.tools).toBeUndefined();
    expect(whole.report.tools).toBeUndefined();
    expect(deferred.report.measurement.floor).toBeLessThan(whole.report.measurement.floor / 10);
  });

  it('rejects a loader that returns no tool list', async () => {
    const broken = { toolsFor: () => ({ deferred: [], found: [], loaded: [] }) } as unknown as ToolLoader;
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, toolLoader: broken, plugins: [tiktokenCounter('o200k_base')] });
    await expect(manager.prepare(transcript([]))).rejects.toThrow(/toolLoader\.toolsFor must return/);
    await expect(manager.prepare(transcript([]))).rejects.toSatisfy((error) => CtxkitError.isInstance(error, 'INVALID_PLUGIN'));
  });

  it('refuses a toolLoader without toolsFor, and a tool list that is not an array, where they are given (decision 0105)', async () => {
    const counter = tiktokenCounter('o200k_base');
    // A function, or deferTools' result passed as the loader's tools: a TypeError in the first prepare before.
    for (const toolLoader of [() => allTools, {}, null] as unknown as ToolLoader[])
      expect(() => createContextManager({ model: 'm', contextWindow: 200_000, toolLoader, plugins: [counter] })).toThrow(/createContextManager toolLoader must be an object with toolsFor\(messages\)/);
    expect(() => createContextManager({ model: 'm', contextWindow: 200_000, tools: { tools: allTools } as unknown as unknown[], plugins: [counter] })).toThrow(
      'createContextManager tools must be an array of tool definitions, got object',
    );
    // An MCP tools/list result, or a string, passed to prepare was counted as text without a word.
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, plugins: [counter] });
    await expect(manager.prepare(transcript([]), { tools: { tools: allTools } as unknown as unknown[] })).rejects.toThrow('prepare tools must be an array of tool definitions, got object');
    await expect(manager.prepare(transcript([]), { tools: 'read_file' as unknown as unknown[] })).rejects.toSatisfy((error) => CtxkitError.isInstance(error, 'INVALID_ARGUMENT'));
    await expect(manager.prepare(transcript([]), { tools: allTools })).resolves.toBeDefined();
  });

  it('waits for a loader that answers with a promise (an asynchronous embedder behind its search)', async () => {
    const inner = callingLoader();
    const asyncLoader: ToolLoader = { toolsFor: (messages) => new Promise((resolve) => setTimeout(() => resolve(inner.toolsFor(messages)), 1)) };
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, tools: allTools, toolLoader: asyncLoader, plugins: [tiktokenCounter('o200k_base')] });
    const result = await manager.prepare(transcript(['tool_3']));
    expect(result.tools?.map((entry) => (entry as { name: string }).name)).toEqual(['search_tools', 'tool_3']);
    expect(result.report.tools).toMatchObject({ sent: 2, loaded: ['tool_3'] });
    const failing: ToolLoader = { toolsFor: () => Promise.reject(new Error('embedding API down')) };
    const broken = createContextManager({ model: 'm', contextWindow: 200_000, toolLoader: failing, plugins: [tiktokenCounter('o200k_base')] });
    await expect(broken.prepare(transcript([]))).rejects.toThrow('embedding API down');
    const empty = { toolsFor: async () => ({ deferred: [] }) } as unknown as ToolLoader;
    await expect(createContextManager({ model: 'm', contextWindow: 200_000, toolLoader: empty, plugins: [tiktokenCounter('o200k_base')] }).prepare(transcript([]))).rejects.toSatisfy((error) =>
      CtxkitError.isInstance(error, 'INVALID_PLUGIN'),
    );
  });
});
