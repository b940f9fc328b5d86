import type { Message } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { deferTools } from './defer-tools.ts';

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: { id: { type: 'string' } } } });
const tools = [
  tool('read_file', 'Read a file from disk.'),
  tool('create_pull_request', 'Open a new pull request in a GitHub repository.'),
  tool('list_issues', 'List issues in a GitHub repository.'),
  tool('get_weather', 'Weather forecast for a city.'),
  tool('send_email', 'Send an email to a recipient.'),
  tool('query_database', 'Run a SQL query against the database.'),
];
const names = (list: readonly unknown[]) => list.map((entry) => (entry as { name?: string; function?: { name: string } }).name ?? (entry as { function: { name: string } }).function.name);

describe('deferTools', () => {
  it('sends the always-loaded tools and one search tool whose description names what can be found', () => {
    const deferred = deferTools(tools, { alwaysLoaded: ['read_file'] });
    expect(names(deferred.tools)).toEqual(['read_file', 'search_tools']);
    const description = (deferred.searchTool as { description: string }).description;
    expect(description).toContain('5 more tools');
    for (const name of ['create_pull_request', 'list_issues', 'get_weather', 'send_email', 'query_database']) expect(description).toContain(name);
    expect(description).not.toContain('read_file');
    expect(deferred.searchTool).toMatchObject({ name: 'search_tools', inputSchema: { required: ['query'] } });
    expect(deferred.deferred).toHaveLength(5);
  });

  it('answers a search call and appends what it found at the end, keeping the earlier list as it was', () => {
    const deferred = deferTools(tools, { alwaysLoaded: ['read_file'], limit: 1 });
    const before = deferred.tools;
    const text = deferred.handle({ id: 'c1', name: 'search_tools', arguments: '{"query":"open a pull request"}' });
    expect(text).toContain('Loaded 1 tool');
    expect(text).toContain('create_pull_request: Open a new pull request in a GitHub repository.');
    expect(deferred.tools.slice(0, before.length)).toEqual(before);
    expect(names(deferred.tools)).toEqual(['read_file', 'search_tools', 'create_pull_request']);
    deferred.handle({ name: 'search_tools', arguments: { query: 'send an email' } });
    expect(names(deferred.tools)).toEqual(['read_file', 'search_tools', 'create_pull_request', 'send_email']);
    expect(deferred.found).toEqual(['create_pull_request', 'send_email']);
    expect(deferred.deferred).not.toContain('send_email');
  });

  it('does not load a tool twice and never returns always-loaded tools from a search', () => {
    const deferred = deferTools(tools, { alwaysLoaded: ['read_file'] });
    deferred.handle({ name: 'search_tools', arguments: { query: 'read a file from disk' } });
    deferred.handle({ name: 'search_tools', arguments: { query: 'read a file from disk' } });
    const list = names(deferred.tools);
    expect(new Set(list).size).toBe(list.length);
    expect(list.filter((name) => name === 'read_file')).toHaveLength(1);
  });

  it('resolves a tool the model calls without having searched, and loads it', () => {
    const deferred = deferTools(tools);
    expect(deferred.resolve('get_weather')).toBe(tools[3]);
    expect(names(deferred.tools)).toEqual(['search_tools', 'get_weather']);
    expect(deferred.resolve('no_such_tool')).toBeUndefined();
    expect(deferred.handle({ name: 'get_weather', arguments: '{}' })).toBeUndefined();
  });

  it('answers a malformed search call with guidance for the model, loading nothing', () => {
    const deferred = deferTools(tools);
    expect(deferred.handle({ name: 'search_tools', arguments: 'not json' })).toMatch(/search_tools needs \{"query"/);
    expect(deferred.handle({ name: 'search_tools', arguments: { query: 'zzzz' } })).toMatch(/No tool matched "zzzz"/);
    expect(names(deferred.tools)).toEqual(['search_tools']);
  });

  it('reads a transcript for the engine: search calls and direct calls load their tools, once', () => {
    const deferred = deferTools(tools, { limit: 1 });
    const messages: Message[] = [
      { role: 'user', content: 'check the weather, then file a PR' },
      { role: 'assistant', content: '', toolCalls: [{ id: 's1', name: 'search_tools', arguments: '{"query":"pull request"}' }] },
      { role: 'tool', toolCallId: 's1', content: '...' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'w1', name: 'get_weather', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'w1', content: 'sunny' },
    ];
    const loading = deferred.toolsFor(messages);
    expect(names(loading.tools)).toEqual(['search_tools', 'create_pull_request', 'get_weather']);
    expect(loading).toMatchObject({ found: ['create_pull_request'], loaded: ['create_pull_request', 'get_weather'] });
    expect(loading.deferred).toEqual(['read_file', 'list_issues', 'send_email', 'query_database']);
    // A later step, after compaction dropped the early calls: nothing is unloaded.
    expect(names(deferred.toolsFor(messages.slice(3)).tools)).toEqual(names(loading.tools));
  });

  it('builds the search tool in the shape of the tools given', () => {
    const openai = tools.map((entry) => ({ type: 'function', function: { name: entry.name, description: entry.description, parameters: entry.inputSchema } }));
    const anthropic = tools.map((entry) => ({ name: entry.name, description: entry.description, input_schema: entry.inputSchema }));
    expect(deferTools(openai).searchTool).toMatchObject({ type: 'function', function: { name: 'search_tools', parameters: { type: 'object' } } });
    expect(deferTools(anthropic).searchTool).toMatchObject({ name: 'search_tools', input_schema: { type: 'object' } });
    const found = deferTools(openai, { limit: 1 });
    found.handle({ name: 'search_tools', arguments: { query: 'sql database' } });
    expect(found.tools.at(-1)).toBe(openai[5]);
  });

  it('always sends hosted tools without a name, and never offers them through search', () => {
    const hosted = { type: 'web_search_preview' };
    const deferred = deferTools([hosted, ...tools]);
    expect(deferred.tools[0]).toBe(hosted);
    expect(names(deferred.tools.slice(1))).toEqual(['search_tools']);
    expect(deferred.deferred).toHaveLength(tools.length);
  });

  it('keeps the names list within its budget', () => {
    const many = Array.from({ length: 300 }, (_, index) => tool(`tool_number_${index}`, 'Does something.'));
    const description = (deferTools(many, { namesBudget: 200 }).searchTool as { description: string }).description;
    expect(description).toMatch(/and \d+ more\.$/);
    expect(description.length).toBeLessThan(600);
  });

  it('throws a clear error for bad input', () => {
    expect(() => deferTools({} as never)).toThrow(/deferTools takes an array of tools/);
    expect(() => deferTools([tools[0], tools[0]])).toThrow(/tools\[1\] repeats the name "read_file" of tools\[0\]/);
    expect(() => deferTools(tools, { alwaysLoaded: ['nope'] })).toThrow(/alwaysLoaded names "nope", which is not among the tools/);
    // From plain JavaScript: one name as a string, or a name that is not a string (decision 0105).
    expect(() => deferTools(tools, { alwaysLoaded: 'read_file' as unknown as string[] })).toThrow('deferTools alwaysLoaded must be an array of tool names, got "read_file"');
    expect(() => deferTools(tools, { alwaysLoaded: [3] as unknown as string[] })).toThrow('deferTools alwaysLoaded must be an array of tool names, got [3]');
    expect(() => deferTools(tools, { searchToolName: '' })).toThrow('deferTools searchToolName must be a tool name, got ""');
    expect(() => deferTools([tool('search_tools', 'mine')])).toThrow(/already named "search_tools"/);
    expect(() => deferTools(tools, { limit: 0 })).toThrow(/limit must be a whole number/);
    expect(() => deferTools(tools).toolsFor('x' as never)).toThrow(/toolsFor takes the transcript as an array/);
  });
});

describe('deferTools with an asynchronous embedder', () => {
  // "rain" and "forecast" meet "weather" only through the embedder: the request shares no word with the tool.
  const concept = (text: string) => {
    const lower = text.toLowerCase();
    return [/weather|forecast|rain/.test(lower) ? 1 : 0, /email|mail/.test(lower) ? 1 : 0, /pull|issue|github/.test(lower) ? 1 : 0, 0.01];
  };
  const embed = (text: string) => new Promise<number[]>((resolve) => setTimeout(() => resolve(concept(text)), 1));
  const searchCall = (id: string, query: string) => ({ id, name: 'search_tools', arguments: JSON.stringify({ query, limit: 1 }) });

  it('answers a search call through handleAsync, finding a tool by meaning, and handle says to use it', async () => {
    const deferred = deferTools(tools, { alwaysLoaded: ['read_file'], search: { semantic: { embed } } });
    await deferred.ready;
    expect(() => deferred.handle(searchCall('c1', 'will it pour tomorrow, rain?'))).toThrow(/handleAsync\(\) \/ toolsForAsync\(\)/);
    expect(await deferred.handleAsync(searchCall('c1', 'will it pour tomorrow, rain?'))).toBe('Loaded 1 tool, callable from your next turn:\n- get_weather: Weather forecast for a city.');
    expect(names(deferred.tools)).toEqual(['read_file', 'search_tools', 'get_weather']);
    expect(await deferred.handleAsync({ name: 'get_weather' })).toBeUndefined();
  });

  it('loads from a transcript through toolsForAsync, in the order of the calls', async () => {
    const deferred = deferTools(tools, { search: { semantic: { embed } } });
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'search_tools', arguments: JSON.stringify({ query: 'mail my boss', limit: 1 }) }] },
      { role: 'tool', toolCallId: 'a', content: 'Loaded' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'b', name: 'list_issues', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'b', content: '[]' },
    ];
    const loading = await deferred.toolsForAsync(messages);
    expect(loading.loaded).toEqual(['send_email', 'list_issues']);
    expect(loading.found).toEqual(['send_email']);
    expect(names(loading.tools)).toEqual(['search_tools', 'send_email', 'list_issues']);
    expect((await deferred.toolsForAsync(messages)).loaded).toEqual(['send_email', 'list_issues']);
  });

  it('rejects, loading nothing, when the embedder fails on the query', async () => {
    const failing = (text: string) => (text.includes('boom') ? Promise.reject(new Error('quota exceeded')) : embed(text));
    const deferred = deferTools(tools, { search: { semantic: { embed: failing } } });
    await expect(deferred.handleAsync(searchCall('c1', 'boom'))).rejects.toThrow(/semantic\.embed threw on the query "boom": quota exceeded/);
    expect(deferred.loaded).toEqual([]);
  });
});
