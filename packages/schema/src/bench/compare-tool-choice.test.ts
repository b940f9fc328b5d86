import { CtxkitError } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { compareToolChoice, type ToolChoice } from './compare-tool-choice.ts';
import type { McpTool } from '../tool-shapes.ts';

const tools: McpTool[] = [
  {
    name: 'grep',
    description: 'Searches file contents. Use it to find where a symbol is defined or used.',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
  },
  {
    name: 'glob',
    description: 'Lists files by name. Use it to find files matching a pattern like *.ts.',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
  },
];

/** A scripted model: picks the tool whose description shares the most words with the prompt. */
function wordOverlapChooser(tools: readonly McpTool[], prompt: string): ToolChoice {
  const words = new Set(prompt.toLowerCase().match(/[a-z]+/g));
  let best: { name: string; score: number } | undefined;
  for (const tool of tools) {
    const score =
      (tool.description ?? '')
        .toLowerCase()
        .match(/[a-z]+/g)
        ?.filter((word) => words.has(word)).length ?? 0;
    if (score > 0 && (!best || score > best.score)) best = { name: tool.name, score };
  }
  return best ? { name: best.name, arguments: JSON.stringify({ pattern: prompt.split(' ').at(-1) }) } : null;
}

const cases = [
  { id: 'contents', prompt: 'search the contents for parseConfig', expected: 'grep' },
  { id: 'defined', prompt: 'where is symbol defined or used: parseConfig', expected: 'grep' },
  { id: 'matching', prompt: 'files matching pattern *.ts', expected: 'glob' },
  { id: 'chat', prompt: 'hello there', expected: null },
];

describe('compareToolChoice', () => {
  it('finds full agreement when compaction keeps what the model reads', async () => {
    const report = await compareToolChoice({ tools, cases, choose: wordOverlapChooser });
    expect(report.compared).toBe(4);
    expect(report.agreement).toBe(1);
    expect(report.differing).toEqual([]);
    expect(report.accuracy).toEqual({ full: 1, compacted: 1, cases: 4 });
    expect(report.argumentsCompared).toBe(3);
    expect(report.argumentsAgreed).toBe(3);
  });

  it('shows the cases that change when tool descriptions lose the sentence that said when to use them', async () => {
    const report = await compareToolChoice({ tools, cases, choose: wordOverlapChooser, compaction: { trimToolDescriptions: true } });
    expect(report.agreement).toBe(0.75);
    expect(report.differing.map((result) => result.id)).toEqual(['defined']);
    expect(report.differing[0]).toMatchObject({ full: { name: 'grep' }, compacted: { name: null }, agree: false });
    expect(report.accuracy).toEqual({ full: 1, compacted: 0.75, cases: 4 });
  });

  it('records a failing model call on its case and leaves it out of the agreement', async () => {
    let calls = 0;
    const report = await compareToolChoice({
      tools,
      cases,
      choose: (list, prompt) => {
        calls++;
        if (prompt.startsWith('hello')) throw new Error('rate limited');
        return wordOverlapChooser(list, prompt);
      },
    });
    expect(calls).toBe(8);
    expect(report.compared).toBe(3);
    expect(report.failed.map((result) => result.id)).toEqual(['chat']);
    expect(report.failed[0]!.full).toEqual({ error: 'rate limited' });
  });

  it('compares against a given list, for an A/A run of the model against itself', async () => {
    let flip = false;
    const noisy = (list: readonly McpTool[], prompt: string): ToolChoice => {
      flip = !flip;
      return flip ? 'grep' : wordOverlapChooser(list, prompt);
    };
    const report = await compareToolChoice({ tools, compacted: tools, cases, choose: noisy });
    expect(report.agreement).toBeLessThan(1);
  });

  it('compares arguments as parsed JSON', async () => {
    const answers = [
      { name: 'grep', arguments: '{"a":1,"b":[2]}' },
      { name: 'grep', arguments: { b: [2], a: 1 } },
    ];
    let call = 0;
    const report = await compareToolChoice({ tools, cases: [{ prompt: 'x' }], choose: () => answers[call++]! });
    expect(report.cases[0]).toMatchObject({ agree: true, argumentsAgree: true });
  });

  it('runs cases concurrently when asked, keeping their order', async () => {
    let inFlight = 0;
    let peak = 0;
    const report = await compareToolChoice({
      tools,
      cases,
      concurrency: 3,
      choose: async (list, prompt) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return wordOverlapChooser(list, prompt);
      },
    });
    expect(peak).toBeGreaterThan(1);
    expect(report.cases.map((result) => result.id)).toEqual(['contents', 'defined', 'matching', 'chat']);
  });

  it('uses per-case tools', async () => {
    const report = await compareToolChoice({ cases: [{ prompt: 'files matching pattern', tools }], choose: wordOverlapChooser });
    expect(report.cases[0]!.full).toMatchObject({ name: 'glob' });
  });

  it('rejects bad options and stops when aborted', async () => {
    await expect(compareToolChoice({ cases: [{ prompt: 'x' }], choose: () => null })).rejects.toThrow('[ctxkit:schema] case 0 has no tools');
    await expect(compareToolChoice({ tools, cases, choose: () => null, concurrency: 0 })).rejects.toThrow(/concurrency must be a whole number/);
    const controller = new AbortController();
    const pending = compareToolChoice({
      tools,
      cases,
      signal: controller.signal,
      choose: () => {
        controller.abort();
        throw new Error('aborted by signal');
      },
    });
    const failure = await pending.catch((error: unknown) => error);
    expect(CtxkitError.isInstance(failure, 'ABORTED')).toBe(true);
  });
});
