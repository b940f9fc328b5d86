import { describe, expect, it } from 'vitest';
import { o200kTokenizer } from '../../test/o200k-tokenizer.ts';
import { deferBench } from './defer-bench.ts';

const tools = Array.from({ length: 60 }, (_, index) => ({
  name: `tool_${index}`,
  description: `Tool number ${index}. ${'It does a particular thing with a long explanation of its options. '.repeat(6)}`,
  inputSchema: { type: 'object', title: 'Args', properties: { target: { type: 'string', title: 'Target', description: 'What to act on.' } }, required: ['target'] },
}));

describe('deferBench', () => {
  it('reports the floor with every tool and with the tools deferred behind one search tool', async () => {
    const report = await deferBench({ system: 'You are an agent.', tools, tokenizer: o200kTokenizer(), defer: { alwaysLoaded: ['tool_0'] } });
    expect(report).toMatchObject({ tokenizer: 'o200k_base', tools: 60, deferred: 59 });
    expect(report.after).toBeLessThan(report.before / 5);
    expect(report.afterCompacted).toBeLessThan(report.after);
    expect(report.savedFraction).toBeCloseTo(1 - report.after / report.before);
    expect(report.searchTool).toBeGreaterThan(0);
    expect(report.searchTool).toBeLessThan(report.after);
  });

  it('throws a clear error without a tokenizer', async () => {
    await expect(deferBench({ tools, tokenizer: {} as never })).rejects.toThrow(/deferBench needs a tokenizer plugin/);
  });
});
