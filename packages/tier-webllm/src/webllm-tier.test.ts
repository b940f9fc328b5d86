import { CtxkitError, type Message, type TierContext, type TierOutcome, textOf } from '@ctxkit/core';
import { appliedOutcome, approximateCount, corpusDir, corpusMissingMessage, createTierContext, listTrajectories, readTrajectory, runTierConformance } from '@ctxkit/testkit';
import { tiktokenCounter } from '@ctxkit/tokens';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { parseContextWindowError } from './context-window-error.ts';
import { createEngineDouble } from './engine-double.ts';
import type { WebllmLoadProgress } from './webllm-engine.ts';
import { type WebllmTierProgress, webllmTier } from './webllm-tier.ts';

const counter = tiktokenCounter('o200k_base');
beforeAll(() => counter.load());
/** The double's "model" counts with the exact o200k tokenizer, as a real model counts with its own. */
const exact = (text: string) => counter.count(text);

function contextFor(messages: readonly Message[], overrides: Partial<TierContext> = {}): TierContext {
  return createTierContext({ protectedStart: messages.length - 2, targetTokens: 1_000, messages, ...overrides });
}

const applied = (outcome: TierOutcome) => appliedOutcome(outcome).messages;

const task = 'Fix the crash in src/parser.ts when parseConfig receives null. Keep the public API unchanged.';

/** A coding run of `rounds` read/test rounds (about 700 tokens each), a follow-up, and a recent round. */
function codingRun(rounds: number): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', id: 'task', content: task },
  ];
  for (let round = 0; round < rounds; round++) {
    const path = `src/module${round}.ts`;
    messages.push({ role: 'assistant', content: `Reading ${path}.`, toolCalls: [{ id: `c${round}`, name: 'read_file', arguments: JSON.stringify({ path }) }] });
    messages.push({
      role: 'tool',
      toolCallId: `c${round}`,
      toolName: 'read_file',
      content: Array.from({ length: 30 }, (_, line) => `export function handler${round}_${line}(input: string | null): number { return input?.length ?? ${line}; }`).join('\n'),
    });
  }
  messages.push({ role: 'user', id: 'follow-up', content: 'Also add a test for the null case.' });
  messages.push({ role: 'assistant', content: 'Adding the test.', toolCalls: [{ id: 'last', name: 'bash', arguments: '{"command":"npm test"}' }] });
  messages.push({ role: 'tool', toolCallId: 'last', toolName: 'bash', content: 'PASS 12 tests' });
  return messages;
}

describe('webllmTier without WebGPU', () => {
  it('skips quickly with the reason, without loading WebLLM, where navigator.gpu is missing (Node)', async () => {
    const messages = codingRun(10);
    const outcome = await webllmTier().apply(messages, contextFor(messages, { protectedStart: messages.length - 3 }));
    expect(outcome).toEqual({ status: 'skipped', reason: expect.stringMatching(/^on-device model unavailable: no WebGPU here: navigator\.gpu is missing/) });
  });

  it('skips where the adapter lacks shader-f16, which the default q4f16 model needs', async () => {
    const navigator = { gpu: { requestAdapter: async () => ({ features: new Set<string>(), limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 } }) } };
    const messages = codingRun(10);
    const outcome = await webllmTier({ webgpu: { navigator } }).apply(messages, contextFor(messages));
    expect(outcome.status).toBe('skipped');
    if (outcome.status === 'skipped') expect(outcome.reason).toMatch(/lacks shader-f16/);
  });

  it('skips a model that is not in WebLLM’s list, naming it', async () => {
    const navigator = { gpu: { requestAdapter: async () => ({ features: new Set(['shader-f16']), limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 } }) } };
    const messages = codingRun(10);
    const outcome = await webllmTier({ model: 'No-Such-Model-MLC', webgpu: { navigator } }).apply(messages, contextFor(messages));
    expect(outcome).toEqual({ status: 'skipped', reason: expect.stringContaining('model "No-Such-Model-MLC" is not in WebLLM\'s model list') });
  });

  it('never loads a model for a span with nothing worth folding', async () => {
    const createEngine = vi.fn(async () => createEngineDouble());
    const messages = codingRun(0);
    const outcome = await webllmTier({ createEngine }).apply(messages, contextFor(messages));
    expect(outcome.status).toBe('skipped');
    expect(createEngine).not.toHaveBeenCalled();
  });
});

describe('webllmTier with an engine', () => {
  it('folds a long span in chunks that each fit the 4,096-token window, merged in order into one summary', async () => {
    const engine = createEngineDouble({ countText: exact });
    const tier = webllmTier({ engine });
    const messages = codingRun(40);
    const protectedStart = messages.length - 3;
    const output = applied(await tier.apply(messages, contextFor(messages, { protectedStart })));

    expect(engine.calls.length).toBeGreaterThan(5);
    for (const call of engine.calls) {
      expect(call.error).toBeUndefined();
      expect(call.promptTokens + (call.request.max_tokens ?? 0)).toBeLessThanOrEqual(4_096);
    }
    // Parts first, in order, then merges; the final summary covers messages 2 to the span's end, one range.
    const parts = engine.calls.filter((call) => /^Part \d+ of \d+/m.test(call.request.messages[1]!.content));
    const numbers = parts.map((call) => Number(/^Part (\d+) of/m.exec(call.request.messages[1]!.content)![1]));
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    expect(engine.calls.slice(0, parts.length)).toEqual(parts);
    const summary = output[2]!;
    expect(output.slice(0, 2)).toEqual(messages.slice(0, 2));
    expect(output.slice(3)).toEqual(messages.slice(protectedStart));
    expect(textOf(summary.content)).toMatch(/^\[ctxkit summary of 80 earlier messages, written on this device/);
    expect(textOf(summary.content)).toContain(`- covered messages 2 to ${protectedStart - 1}\n`);
    expect(textOf(summary.content)).toContain(`## Task\n${task}`);
    expect(summary.meta?.ctxkit).toEqual({ kind: 'summary', by: 'webllm', replaces: messages.slice(2, protectedStart).map((message, index) => message.id ?? `#${index + 2}`) });
  });

  it('learns from a context-window error that the model counts more tokens, and retries with smaller chunks', async () => {
    // The model's tokenizer counts three times what o200k counts (the estimate errs high, but not that high).
    const engine = createEngineDouble({ countText: (text) => 3 * exact(text) });
    const tier = webllmTier({ engine });
    const messages = codingRun(30);
    const output = applied(await tier.apply(messages, contextFor(messages, { protectedStart: messages.length - 3 })));
    const rejected = engine.calls.filter((call) => call.error);
    expect(rejected.length).toBeGreaterThan(0);
    expect(parseContextWindowError(rejected[0]!.error)).toEqual({ promptTokens: rejected[0]!.promptTokens, contextWindow: 4_096 });
    expect(tier.summarizer!.tokenRatio).toBeGreaterThan(1);
    const afterRetry = engine.calls.slice(engine.calls.indexOf(rejected.at(-1)!) + 1);
    expect(afterRetry.length).toBeGreaterThan(0);
    for (const call of afterRetry) expect(call.error).toBeUndefined();
    expect(textOf(output[2]!.content)).toContain(`- covered messages 2 to ${messages.length - 4}\n`);
  });

  it('reports load and chunk progress to the compaction and the host, with fractions that only grow', async () => {
    const hostProgress: WebllmTierProgress[] = [];
    const compactionProgress: { message: string; fraction?: number }[] = [];
    const tier = webllmTier({
      createEngine: async (_model, { onProgress }) => {
        for (const progress of [0, 0.5, 1]) onProgress({ progress, text: `Fetching param cache[${progress * 10}/10]` } satisfies WebllmLoadProgress);
        return createEngineDouble({ countText: exact });
      },
      onProgress: (progress) => hostProgress.push(progress),
    });
    const messages = codingRun(25);
    applied(await tier.apply(messages, contextFor(messages, { progress: (detail) => compactionProgress.push(detail) })));
    expect(hostProgress.filter((progress) => progress.phase === 'load').map((progress) => progress.fraction)).toEqual([0, 0.5, 1]);
    expect(hostProgress[0]!.message).toBe('loading Qwen2.5-0.5B-Instruct-q4f16_1-MLC: Fetching param cache[0/10]');
    const chunks = hostProgress.filter((progress) => progress.phase === 'summarize');
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.at(-1)).toMatchObject({ fraction: 1 });
    const fractions = chunks.map((progress) => progress.fraction ?? 0);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(compactionProgress.map((detail) => detail.message)).toEqual(hostProgress.map((progress) => progress.message));
  });
});

describe('webllmTier engine lifecycle', () => {
  it('reuses one engine across compactions, and unload() frees it so the next compaction loads again', async () => {
    const engines: ReturnType<typeof createEngineDouble>[] = [];
    const createEngine = vi.fn(async () => {
      engines.push(createEngineDouble({ countText: exact }));
      return engines.at(-1)!;
    });
    const tier = webllmTier({ createEngine });
    const messages = codingRun(12);
    applied(await tier.apply(messages, contextFor(messages)));
    applied(await tier.apply(messages, contextFor(messages)));
    expect(createEngine).toHaveBeenCalledTimes(1);
    await tier.unload();
    expect(engines[0]!.unloaded).toBe(true);
    applied(await tier.apply(messages, contextFor(messages)));
    expect(createEngine).toHaveBeenCalledTimes(2);
  });

  it('skips with the load error, remembers it for retryAfterMs, and tries again after unload()', async () => {
    const createEngine = vi.fn(async () => {
      throw new Error('The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).');
    });
    const tier = webllmTier({ createEngine });
    const messages = codingRun(12);
    const first = await tier.apply(messages, contextFor(messages));
    expect(first).toEqual({
      status: 'skipped',
      reason: expect.stringMatching(/^on-device model unavailable: the model "Qwen2\.5-0\.5B-Instruct-q4f16_1-MLC" failed to load: The WebGPU device was lost/),
    });
    expect(await tier.apply(messages, contextFor(messages))).toEqual(first);
    expect(createEngine).toHaveBeenCalledTimes(1);
    await tier.unload();
    await tier.apply(messages, contextFor(messages));
    expect(createEngine).toHaveBeenCalledTimes(2);
  });

  it('skips while the model is still loading past loadTimeoutMs, and uses it once loaded', async () => {
    let finish: () => void = () => {};
    const loaded = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const createEngine = vi.fn(async () => {
      await loaded;
      return createEngineDouble({ countText: exact });
    });
    const tier = webllmTier({ createEngine, loadTimeoutMs: 10 });
    const messages = codingRun(12);
    const first = await tier.apply(messages, contextFor(messages));
    expect(first).toEqual({ status: 'skipped', reason: expect.stringContaining('is still loading after 10 ms; it keeps loading for later compactions') });
    finish();
    applied(await tier.apply(messages, contextFor(messages)));
    expect(createEngine).toHaveBeenCalledTimes(1);
  });

  it('load() loads ahead of the first compaction and reports the window', async () => {
    const createEngine = vi.fn(async () => createEngineDouble());
    const tier = webllmTier({ createEngine, contextWindow: 2_048 });
    expect(await tier.load()).toEqual({ ok: true, contextWindow: 2_048 });
    expect(tier.summarizer?.contextWindow).toBe(2_048);
    expect(await webllmTier().load()).toEqual({ ok: false, reason: expect.stringContaining('navigator.gpu is missing') });
  });

  it('keeps every request within maxChunkTokens when it is below the window', async () => {
    const engine = createEngineDouble({ countText: exact });
    const messages = codingRun(20);
    applied(await webllmTier({ engine, maxChunkTokens: 1_500 }).apply(messages, contextFor(messages)));
    for (const call of engine.calls) expect(call.promptTokens + (call.request.max_tokens ?? 0)).toBeLessThanOrEqual(1_500);
  });
});

describe('webllmTier failures fall through with the transcript unchanged', () => {
  it('interrupts a hung generation at timeoutMs and fails with the reason', async () => {
    const engine = createEngineDouble({ countText: exact, hang: (_request, index) => index === 1 });
    const messages = codingRun(20);
    const outcome = await webllmTier({ engine, timeoutMs: 30 }).apply(messages, contextFor(messages));
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') {
      expect(outcome.reason).toMatch(/the on-device model did not finish within 30 ms; stopped with interruptGenerate\(\)/);
      expect(CtxkitError.isInstance(outcome.error)).toBe(true);
    }
    expect(engine.interrupts).toBe(1);
    expect(engine.calls[1]!.finishReason).toBe('abort');
  });

  it('drops an engine that does not stop after interruptGenerate, and loads a fresh one next time', async () => {
    const engines = [createEngineDouble({ hang: () => true, ignoreInterrupt: true }), createEngineDouble({ countText: exact })];
    const createEngine = vi.fn(async () => engines[createEngine.mock.calls.length - 1]!);
    const tier = webllmTier({ createEngine, timeoutMs: 20 });
    const messages = codingRun(12);
    expect((await tier.apply(messages, contextFor(messages))).status).toBe('failed');
    expect(engines[0]!.unloaded).toBe(true);
    applied(await tier.apply(messages, contextFor(messages)));
    expect(createEngine).toHaveBeenCalledTimes(2);
  });

  it('stops the generation when the compaction is aborted', async () => {
    const controller = new AbortController();
    const engine = createEngineDouble({
      hang: () => {
        setTimeout(() => controller.abort(new Error('user cancelled')), 5);
        return true;
      },
    });
    const messages = codingRun(12);
    const outcome = await webllmTier({ engine }).apply(messages, contextFor(messages, { signal: controller.signal }));
    expect(outcome.status).toBe('failed');
    expect(engine.interrupts).toBe(1);
  });

  it.each([
    ['lost the task', () => '## Task\nWrite a poem about the sea.\n## Done\nnothing', /the summary lost the task/],
    ['came back empty', () => '   ', /came back empty/],
    ['is not shorter', () => `## Task\n${task}\n## Done\n${'read the parser and ran the tests. '.repeat(30)}`, /is not shorter than the .*-token span/],
  ])('rejects a summary that %s', async (_name, respond, reason) => {
    const messages: Message[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: task },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/parser.ts"}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'export function parseConfig(text) { return JSON.parse(text).settings; }' },
      { role: 'user', content: 'Go on.' },
    ];
    const outcome = await webllmTier({ engine: createEngineDouble({ respond }), minSpanTokens: 0, maxSummaryTokens: 4_000 }).apply(messages, contextFor(messages, { protectedStart: 4 }));
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.reason).toMatch(reason);
  });

  it('fails on a broken engine answer, naming it', async () => {
    const engine = createEngineDouble();
    engine.chat.completions.create = async () => ({ choices: [{ message: { content: null } }] });
    const messages = codingRun(12);
    const outcome = await webllmTier({ engine }).apply(messages, contextFor(messages));
    expect(outcome).toMatchObject({ status: 'failed', reason: expect.stringContaining('returned no text (choices[0].message.content is null)') });
  });

  it('rejects bad options and a protectedStart outside the transcript', async () => {
    expect(() => webllmTier({ timeoutMs: 0 })).toThrow('[ctxkit:tier-webllm] option timeoutMs must be a number from 1 (or Infinity), got 0');
    expect(() => webllmTier({ maxChunkTokens: 100 })).toThrow(/option maxChunkTokens must be an integer from 256/);
    expect(() => webllmTier({ engine: {} as never })).toThrow(/option engine must implement chat\.completions\.create/);
    const messages = codingRun(1);
    await expect(webllmTier().apply(messages, contextFor(messages, { protectedStart: 99 }))).rejects.toThrow(/context\.protectedStart must be an integer from 0 to/);
  });
});

runTierConformance(() => webllmTier({ engine: createEngineDouble(), minSpanTokens: 0, taskTermCoverage: 0 }), { runs: 1_000 });

describe.skipIf(!corpusDir())('webllmTier on the recorded runs', () => {
  if (!corpusDir()) console.log(corpusMissingMessage);
  it.each(listTrajectories())(
    '%s: every request fits the 4,096-token window and the summary keeps the task',
    async (file) => {
      const messages = readTrajectory(file);
      const engine = createEngineDouble({ countText: exact });
      const protectedStart = Math.max(3, messages.length - 6);
      const outcome = await webllmTier({ engine }).apply(messages, contextFor(messages, { protectedStart, count: approximateCount }));
      const output = applied(outcome);
      for (const call of engine.calls) {
        expect(call.error, call.error?.message).toBeUndefined();
        expect(call.promptTokens + (call.request.max_tokens ?? 0)).toBeLessThanOrEqual(4_096);
      }
      expect(approximateCount(output)).toBeLessThan(approximateCount(messages));
      expect(output.slice(-(messages.length - protectedStart))).toEqual(messages.slice(protectedStart));
    },
    60_000,
  );
});
