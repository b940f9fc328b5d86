import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ajvCompiler } from '../test/ajv-compiler.ts';
import { o200kTokenizer } from '../test/o200k-tokenizer.ts';
import type { CompactionWarning } from './compaction-warning.ts';
import { type CompactToolsOptions, compactTools } from './compact-tools.ts';
import { normalizeToolsInput } from './normalize-tools-input.ts';
import { deferBench } from './bench/defer-bench.ts';
import { schemaBench } from './bench/schema-bench.ts';
import { checkToolsAgreement } from './bench/validation-agreement.ts';

// Tool sets of shapes the shared corpus lacks, from public documentation and sources, each file naming its
// source: FastMCP / Pydantic, function-calling-benchmark docs, and the MCP servers and generators recorded for
// issue 12 (Stainless, Sentry, tau2-bench, openapi-mcp-generator, Playwright, a Rust rmcp server, Go SDK and Go
// Toolbox servers, Notion, Supabase, Azure (.NET), mcp-server-kubernetes, MongoDB, Heroku, n8n-mcp, Firecrawl,
// LaunchDarkly, ExecuteAutomation, Chrome DevTools, AntV, HubSpot, Desktop Commander, Temporal Cortex, Kanoniv,
// Falconer, Lark, x64dbg, Twilio, Auth0, Postman, Microsoft 365, Google Drive, XcodeBuildMCP, Metabase, Todoist,
// Coolify). Every file here is picked up; `non-json-schema/` (BFCL's raw types, which ajv cannot compile) is not.
const fixtures = join(import.meta.dirname, '__fixtures__');
const files = readdirSync(fixtures)
  .filter((file) => file.endsWith('.json'))
  .sort();
const read = (file: string) => {
  const data = JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as { source: string; tools: unknown[] };
  return { source: data.source, tools: normalizeToolsInput(data.tools).tools };
};

describe.each(files)('fixture %s', (file) => {
  it('names its source', () => {
    expect(read(file).source.length).toBeGreaterThan(40);
  });

  it.each<[string, CompactToolsOptions]>([
    ['default', {}],
    ['every description dropped', { dropDescriptions: true, trimToolDescriptions: true }],
  ])('validates exactly as before when compacted (%s)', (_mode, options) => {
    const { tools } = read(file);
    const warnings: CompactionWarning[] = [];
    const compacted = compactTools(tools, { ...options, onWarning: (warning) => warnings.push(warning) });
    expect(warnings).toEqual([]);
    const report = checkToolsAgreement({ tools, compacted, compile: ajvCompiler().compile });
    expect(report.failures).toEqual([]);
    expect(report.tools.flatMap((tool) => tool.disagreements.map((entry) => `${tool.name}: ${entry.note}`))).toEqual([]);
    expect(report.agreement).toBe(1);
    for (const tool of report.tools) expect(tool.rejectedByOriginal, `${tool.name} rejected`).toBeGreaterThan(0);
  });
});

it('saves at least a quarter of the FastMCP / Pydantic set in the default mode (titles, Optional unions, null defaults)', async () => {
  const report = await schemaBench({ tools: read('fastmcp-pydantic.json').tools, tokenizer: o200kTokenizer() });
  expect(report.toolsTotal.savedFraction).toBeGreaterThanOrEqual(0.25);
  // Every Optional[X] union went, except the one over an enum (an enum without null rejects null).
  expect(JSON.stringify(report.compacted).match(/\{"type":"null"\}/g)).toHaveLength(1);
});

it('cuts the floor of a 527-tool set pooled from the recorded servers by more than 85% when deferred', async () => {
  // The goal names a 527-tool set; the recorded MCP servers together hold more, so the first 527
  // distinct names (files in order) stand in for one agent wired to many servers.
  const names = new Set<string>();
  const pool = files
    .flatMap((file) => read(file).tools as { name?: string; inputSchema?: unknown }[])
    .filter((tool) => tool.inputSchema !== undefined && tool.name !== undefined && !names.has(tool.name) && names.add(tool.name))
    .slice(0, 527);
  expect(pool).toHaveLength(527);
  const report = await deferBench({ tools: pool, tokenizer: o200kTokenizer() });
  expect(report.deferred).toBe(527);
  expect(report.before).toBeGreaterThan(100_000);
  expect(report.savedFraction).toBeGreaterThan(0.85);
});
