import { CtxkitError, type TokenizerPlugin } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { o200kTokenizer } from '../../test/o200k-tokenizer.ts';
import { schemaBench } from './schema-bench.ts';

const long = {
  name: 'search_code',
  description: 'Searches code across every repository. Slow on big organisations.',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    title: 'Search code input',
    properties: {
      query: { type: 'string', description: 'The search query, in GitHub syntax. See https://docs.github.com/search for the operators.', examples: ['repo:a/b foo'] },
      page: { type: 'number', minimum: 1, description: 'Page number for pagination (min 1)', default: 1 },
    },
    required: ['query'],
  },
};
const short = { name: 'ping', inputSchema: { type: 'object' } };

describe('schemaBench', () => {
  it('measures the system message, each tool and the floor, before and after compaction', async () => {
    const tokenizer = o200kTokenizer();
    const report = await schemaBench({ system: 'You are a coding agent.', tools: [short, long], tokenizer });
    await tokenizer.load!();
    expect(report.tokenizer).toBe('o200k_base');
    expect(report.system.tokens).toBe(tokenizer.count('You are a coding agent.'));
    expect(report.tools.map((tool) => tool.name)).toEqual(['search_code', 'ping']);
    const [search, ping] = report.tools;
    expect(search!.tokens).toBe(tokenizer.count(JSON.stringify(long)));
    expect(search!.compactedTokens).toBe(tokenizer.count(JSON.stringify(report.compacted[1])));
    expect(search!.savedFraction).toBeGreaterThan(0.3);
    expect(ping!.savedTokens).toBe(0);
    expect(report.toolsTotal.tokens).toBe(search!.tokens + ping!.tokens);
    expect(report.floor).toEqual({
      tokens: report.system.tokens + report.toolsTotal.tokens,
      compactedTokens: report.system.tokens + report.toolsTotal.compactedTokens,
      savedTokens: report.toolsTotal.savedTokens,
      savedFraction: report.toolsTotal.savedTokens / (report.system.tokens + report.toolsTotal.tokens),
    });
  });

  it('measures the trimmed-tool-description mode when asked, and a custom rendering', async () => {
    const tokenizer = o200kTokenizer();
    const whole = await schemaBench({ tools: [long], tokenizer });
    const trimmed = await schemaBench({ tools: [long], tokenizer, compaction: { trimToolDescriptions: true } });
    expect(trimmed.toolsTotal.compactedTokens).toBeLessThan(whole.toolsTotal.compactedTokens);
    const pretty = await schemaBench({ tools: [long], tokenizer, render: (tool) => JSON.stringify(tool, null, 2) });
    expect(pretty.toolsTotal.tokens).toBeGreaterThan(whole.toolsTotal.tokens);
  });

  it('collects warnings for tools it could not compact instead of printing them', async () => {
    const report = await schemaBench({ tools: [{ name: 'bad', inputSchema: { $ref: '#/nowhere' } }], tokenizer: o200kTokenizer() });
    expect(report.tools[0]).toMatchObject({ outcome: 'passed-through', savedTokens: 0 });
    expect(report.warnings[0]!.message).toMatch(/tool 0 \("bad"\) at \/\$ref/);
  });

  it('fails clearly without a usable tokenizer, or when it throws', async () => {
    await expect(schemaBench({ tools: [], tokenizer: {} as TokenizerPlugin })).rejects.toThrow('[ctxkit:schema] schemaBench needs a tokenizer plugin with a count(text) method');
    const broken: TokenizerPlugin = {
      specificationVersion: 'v1',
      kind: 'tokenizer',
      id: 'broken',
      count: () => {
        throw new Error('no ranks');
      },
    };
    const failure = await schemaBench({ tools: [short], tokenizer: broken }).catch((error: unknown) => error);
    expect(CtxkitError.isInstance(failure, 'TOKENIZER_FAILED')).toBe(true);
    expect((failure as Error).message).toBe('[ctxkit:schema] tokenizer broken failed on tool 0 ("ping")');
  });
});
