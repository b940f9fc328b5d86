import { CtxkitError } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { createEngineDouble } from './engine-double.ts';
import { webllmSummarizer } from './webllm-summarizer.ts';

const request = {
  messages: [
    { role: 'user' as const, content: 'The task: fix parseConfig.' },
    { role: 'user' as const, content: 'The messages: [message 2 · assistant] Reading.' },
  ],
  instructions: 'Summarize.',
  maxOutputTokens: 300,
};

describe('webllmSummarizer', () => {
  it('sends the instructions as the system message and the data as one user message, with max_tokens', async () => {
    const engine = createEngineDouble({ respond: () => '## Task\nfix parseConfig' });
    const summarizer = webllmSummarizer({ engine, contextWindow: 2_048 });
    expect(summarizer).toMatchObject({ kind: 'summarizer', id: 'webllm', contextWindow: 2_048 });
    expect(await summarizer.summarize(request)).toBe('## Task\nfix parseConfig');
    expect(engine.calls[0]!.request).toEqual({
      messages: [
        { role: 'system', content: 'Summarize.' },
        { role: 'user', content: 'The task: fix parseConfig.\n\nThe messages: [message 2 · assistant] Reading.' },
      ],
      max_tokens: 300,
      temperature: 0,
      stream: false,
    });
  });

  it('learns the model’s tokens per estimated token from usage, and counts with it', async () => {
    const engine = createEngineDouble({ countText: (text) => 3 * text.length, tokensPerMessage: 0, respond: () => 'ok' });
    const summarizer = webllmSummarizer({ engine, countText: (text) => text.length });
    expect(summarizer.tokenRatio).toBe(1);
    await summarizer.summarize(request);
    // The double counts 3 a character plus 3 for the generation prompt; the estimate counts 1.
    expect(summarizer.tokenRatio).toBeGreaterThan(3);
    expect(summarizer.tokenRatio).toBeLessThan(3.1);
    expect(summarizer.countText('x'.repeat(100))).toBe(Math.ceil(100 * summarizer.tokenRatio));
  });

  it('turns WebLLM’s context-window error into a ctxkit error and raises the ratio from its numbers', async () => {
    const engine = createEngineDouble({ contextWindow: 256, countText: (text) => text.length });
    const summarizer = webllmSummarizer({ engine, countText: (text) => Math.ceil(text.length / 2) });
    const long = { ...request, messages: [{ role: 'user' as const, content: 'x'.repeat(1_000) }] };
    const error = await summarizer.summarize(long).catch((caught: unknown) => caught);
    expect(CtxkitError.isInstance(error, 'PROVIDER_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/^\[ctxkit:tier-webllm\] the on-device model counted 1023 prompt tokens, over its 256-token window \(estimated 505\)/);
    // 1,000 + "Summarize." (10) + 5 a message for two messages + 3 for the generation prompt, by 505 estimated.
    expect(summarizer.tokenRatio).toBeCloseTo(1023 / 505, 5);
    // A ratio far beyond any tokenizer is a broken report: it is capped at 4.
    const capped = webllmSummarizer({ engine, countText: () => 1 });
    await capped.summarize(long).catch(() => {});
    expect(capped.tokenRatio).toBe(4);
  });

  it('keeps a ratio learned from a rejected prompt after later requests report less', async () => {
    // The model counts an x as 2 tokens and anything else as 1; the estimate counts every character as 1.
    const countText = (text: string) => [...text].reduce((sum, character) => sum + (character === 'x' ? 2 : 1), 0);
    const engine = createEngineDouble({ contextWindow: 600, countText, tokensPerMessage: 0, respond: () => 'ok' });
    const summarizer = webllmSummarizer({ engine, countText: (text) => text.length });
    await summarizer.summarize({ ...request, messages: [{ role: 'user', content: 'x'.repeat(400) }] }).catch(() => {});
    const afterOverflow = summarizer.tokenRatio;
    expect(afterOverflow).toBeCloseTo(813 / 410, 5);
    // Ten requests of plain text, each teaching a ratio near 1: more than the 8 the ratio looks back on.
    for (let index = 0; index < 10; index++) await summarizer.summarize({ ...request, messages: [{ role: 'user', content: 'y'.repeat(200) }] });
    expect(summarizer.tokenRatio).toBe(afterOverflow);
  });

  it('rejects an answer cut where the window filled up, but keeps one cut at max_tokens', async () => {
    const text = 'word '.repeat(400);
    const windowCut = webllmSummarizer({ engine: createEngineDouble({ contextWindow: 400, respond: () => text }) });
    await expect(windowCut.summarize({ ...request, maxOutputTokens: 1_000 })).rejects.toThrow(/answer was cut after \d+ tokens where its window filled up/);
    const budgetCut = webllmSummarizer({ engine: createEngineDouble({ respond: () => text }) });
    expect((await budgetCut.summarize({ ...request, maxOutputTokens: 50 })).length).toBeLessThan(text.length);
  });

  it('stops a generation at timeoutMs with interruptGenerate, and one whose signal aborts', async () => {
    const engine = createEngineDouble({ hang: () => true });
    const summarizer = webllmSummarizer({ engine, timeoutMs: 20 });
    await expect(summarizer.summarize(request)).rejects.toThrow('[ctxkit:tier-webllm] the on-device model did not finish within 20 ms; stopped with interruptGenerate()');
    const controller = new AbortController();
    const pending = webllmSummarizer({ engine }).summarize({ ...request, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toSatisfy((error: unknown) => CtxkitError.isInstance(error, 'ABORTED'));
    expect(engine.interrupts).toBe(2);
  });

  it('runs one generation at a time on an engine, in the order asked', async () => {
    const order: string[] = [];
    const engine = createEngineDouble({
      respond: async (call) => {
        const name = call.messages[0]!.content;
        order.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, name === 'first' ? 20 : 1));
        order.push(`end ${name}`);
        return name;
      },
    });
    const summarizer = webllmSummarizer({ engine });
    const answers = await Promise.all([summarizer.summarize({ ...request, instructions: 'first' }), summarizer.summarize({ ...request, instructions: 'second' })]);
    expect(answers).toEqual(['first', 'second']);
    expect(order).toEqual(['start first', 'end first', 'start second', 'end second']);
  });

  it('takes a lazy engine, loaded on the first summary', async () => {
    let loads = 0;
    const summarizer = webllmSummarizer({
      engine: async () => {
        loads += 1;
        return createEngineDouble({ respond: () => 'done' });
      },
    });
    expect(loads).toBe(0);
    expect(await summarizer.summarize(request)).toBe('done');
    expect(loads).toBe(1);
  });

  it('rejects an engine without chat.completions.create and out-of-range options', () => {
    expect(() => webllmSummarizer({ engine: { chat: {} } as never })).toThrow(/option engine must implement chat\.completions\.create/);
    expect(() => webllmSummarizer({ engine: createEngineDouble(), contextWindow: 100 })).toThrow('[ctxkit:tier-webllm] option contextWindow must be an integer from 256 up, got 100');
    expect(() => webllmSummarizer({ engine: createEngineDouble(), temperature: 3 })).toThrow(/option temperature must be a number from 0 to 2/);
  });
});
