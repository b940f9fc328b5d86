import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContextManager } from '@ctxkit/engine';
import { deferTools } from '@ctxkit/schema';
import { tiktokenCounter } from '@ctxkit/tokens';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess as ctxkit } from '../__fixtures__/run-cli.ts';

let dir: string;
const file = (name: string) => join(dir, name);
const topics = ['weather forecast', 'pull request', 'email message', 'database query', 'calendar meeting', 'image resize', 'stock price', 'translate text'];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctxkit-defer-'));
  const tools = topics.map((topic) => ({
    name: topic.replace(' ', '_'),
    description: `Works with a ${topic}. ${'A long explanation of every option this tool has. '.repeat(10)}`,
    inputSchema: { type: 'object', properties: { input: { type: 'string', description: `The ${topic} to use.` } } },
  }));
  writeFileSync(file('tools.json'), JSON.stringify({ tools }));
  writeFileSync(
    file('queries.json'),
    JSON.stringify({
      queries: [
        { query: 'what is the weather forecast for tomorrow', tools: ['weather_forecast'] },
        { query: 'open a pull request', tools: ['pull_request'] },
      ],
      multiToolQueries: [{ query: 'email me the stock price', tools: ['email_message', 'stock_price'] }],
    }),
  );
  writeFileSync(file('bad-queries.json'), JSON.stringify([{ query: 'x' }]));
  writeFileSync(
    file('unknown-tool-queries.json'),
    JSON.stringify({
      queries: [
        { query: 'open a pull request', tools: ['pull_request'] },
        { query: 'open a PR', tools: ['create_pull_request'] },
      ],
    }),
  );
  writeFileSync(file('no-tool-queries.json'), JSON.stringify([{ query: 'open a pull request', tools: [] }]));
  writeFileSync(file('no-queries.json'), '[]');
  writeFileSync(file('no-single-queries.json'), JSON.stringify({ queries: [] }));
  writeFileSync(file('blank-query.json'), JSON.stringify([{ query: '  ', tools: ['pull_request'] }]));
  writeFileSync(file('no-tools.json'), JSON.stringify({ tools: [] }));
});

describe('ctxkit schema-bench --defer', () => {
  it('prints the floor with every tool and with the tools deferred behind the search tool', async () => {
    const { code, stdout } = await ctxkit('schema-bench', file('tools.json'), '--defer');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^all 8 tools sent\s+[\d,]+\s+0%$/m);
    expect(stdout).toMatch(/^8 deferred behind search_tools\s+[\d,]+\s+[89]\d%$/m);
  });

  it('refuses --compact with --defer, --queries or --always-loaded, saying why (decision 0105)', async () => {
    for (const [option, ...value] of [['--defer'], ['--queries', file('queries.json')], ['--always-loaded', 'weather_forecast']]) {
      const both = await ctxkit('schema-bench', file('tools.json'), '--compact', option!, ...value);
      expect(both.code).toBe(2);
      expect(both.stdout).toBe('');
      expect(both.stderr).toContain(`schema-bench --compact prints the compacted tools, ${option} measures deferring them: run one at a time`);
    }
  });

  it('takes --queries or --always-loaded alone as --defer, as --help says', async () => {
    for (const args of [
      ['--queries', file('queries.json')],
      ['--always-loaded', 'weather_forecast'],
    ]) {
      const { code, stdout } = await ctxkit('schema-bench', file('tools.json'), ...args);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^all 8 tools sent\s/m);
    }
    expect((await ctxkit('--help')).stdout).toContain('--queries or --always-loaded alone implies --defer; --compact does not combine with them');
  });

  it('keeps --always-loaded tools in the floor and prints retrieval figures for a queries file', async () => {
    const { code, stdout } = await ctxkit('schema-bench', file('tools.json'), '--defer', '--always-loaded', 'weather_forecast', '--queries', file('queries.json'), '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.floor).toMatchObject({ tools: 8, deferred: 7 });
    expect(report.retrieval).toEqual([
      expect.objectContaining({ label: 'single-tool requests', queries: 2, top1: 1, topK: 1 }),
      expect.objectContaining({ label: 'multi-tool requests', queries: 1, topK: 1, allInTopK: 1 }),
    ]);
  });

  it('prints a top-1 / top-5 table', async () => {
    const { code, stdout } = await ctxkit('schema-bench', file('tools.json'), '--defer', '--queries', file('queries.json'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^single-tool requests\s+2\s+100%\s+100%\s+100%$/m);
  });

  it('exits 2 with the entry that is wrong in a queries file, or an unknown always-loaded tool', async () => {
    const bad = await ctxkit('schema-bench', file('tools.json'), '--defer', '--queries', file('bad-queries.json'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad-queries\.json: entry\[0\] needs \{ query: string, tools: string\[\] \}/);
    // A request naming a tool the tools file lacks, or none, would be scored as a miss (or as found) without a word.
    const misnamed = await ctxkit('schema-bench', file('tools.json'), '--defer', '--queries', file('unknown-tool-queries.json'));
    expect(misnamed.code).toBe(2);
    expect(misnamed.stderr).toMatch(/unknown-tool-queries\.json: queries\[1\] names "create_pull_request", which is not among the 8 tools/);
    const empty = await ctxkit('schema-bench', file('tools.json'), '--defer', '--queries', file('no-tool-queries.json'));
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no-tool-queries\.json: entry\[0\] needs \{ query: string, tools: string\[\] \} with at least one tool/);
    const unknown = await ctxkit('schema-bench', file('tools.json'), '--defer', '--always-loaded', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/alwaysLoaded names "nope"/);
  });
});

describe('ctxkit schema-bench with nothing to measure (issue 14 re-check, decision 0105)', () => {
  it.each([
    ['no-queries.json', 'the array holds no requests'],
    ['no-single-queries.json', 'queries holds no requests'],
    ['blank-query.json', 'entry[0] has an empty query'],
  ])('exits 2 for the queries file %s instead of printing zeros as figures', async (name, says) => {
    const { code, stdout, stderr } = await ctxkit('schema-bench', file('tools.json'), '--defer', '--queries', file(name));
    expect(code).toBe(2);
    expect(stderr).toContain(`${file(name)}: ${says}`);
    expect(stdout).toBe('');
  });

  it('exits 2 for a tools file that holds no tools, with and without --defer', async () => {
    for (const extra of [[], ['--defer']]) {
      const { code, stderr } = await ctxkit('schema-bench', file('no-tools.json'), ...extra);
      expect(code).toBe(2);
      expect(stderr).toContain(`${file('no-tools.json')}: holds no tools`);
    }
  });

  it('refuses an empty --queries or --always-loaded instead of reading it as not given', async () => {
    for (const option of ['--queries=', '--always-loaded=']) {
      const { code, stdout, stderr } = await ctxkit('schema-bench', file('tools.json'), '--defer', option);
      expect(code).toBe(2);
      expect(stderr).toContain(`${option.slice(0, -1)} needs a value, got ""`);
      expect(stdout).toBe('');
    }
  });
});

describe('deferTools as the engine’s toolLoader', () => {
  it('fits the contract: prepare returns the deferred list and then the tools a search found', async () => {
    const tools = topics.map((topic) => ({ name: topic.replace(' ', '_'), description: `Works with a ${topic}.`, inputSchema: { type: 'object' } }));
    const manager = createContextManager({ model: 'm', contextWindow: 100_000, toolLoader: deferTools(tools, { limit: 1 }), plugins: [tiktokenCounter('o200k_base')] });
    const start = await manager.prepare([{ role: 'user', content: 'open a pull request' }]);
    expect(start.tools?.map((tool) => (tool as { name: string }).name)).toEqual(['search_tools']);
    const later = await manager.prepare([
      { role: 'user', content: 'open a pull request' },
      { role: 'assistant', content: '', toolCalls: [{ id: 's1', name: 'search_tools', arguments: '{"query":"pull request"}' }] },
      { role: 'tool', toolCallId: 's1', content: 'Loaded 1 tool' },
    ]);
    expect(later.tools?.map((tool) => (tool as { name: string }).name)).toEqual(['search_tools', 'pull_request']);
    expect(later.report.tools).toMatchObject({ sent: 2, found: ['pull_request'], loaded: ['pull_request'] });
  });
});
