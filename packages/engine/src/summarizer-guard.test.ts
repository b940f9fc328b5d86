import { CtxkitError, type Message, type SummarizerPlugin, type TierPlugin, textOf } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { createContextManager } from './context-manager.ts';
import { createSummarizerGuard } from './summarizer-guard.ts';

const words = (count: number, seed: string) => Array.from({ length: count }, (_, index) => `${seed}${index % 97} line ${index}`).join('\n');
function run(steps: number, seed = 'a'): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: 'Fix the off-by-one error in src/range.ts.' },
  ];
  for (let step = 0; step < steps; step++) {
    messages.push({ role: 'assistant', content: `Step ${step}.`, toolCalls: [{ id: `c${step}`, name: 'bash', arguments: '{}' }] });
    messages.push({ role: 'tool', toolCallId: `c${step}`, toolName: 'bash', content: words(300, `${seed}${step}`) });
  }
  return messages;
}

/** A tier that asks the summarizer for one line per span and fails when it cannot. */
const summaryishTier = (): TierPlugin => ({
  specificationVersion: 'v1',
  kind: 'tier',
  id: 'summaryish',
  category: 'model',
  async apply(messages, context) {
    if (!context.summarizer) return { status: 'skipped', reason: 'no summarizer' };
    try {
      await context.summarizer.summarize({ messages: messages.slice(1, context.protectedStart), instructions: 'summarize', signal: context.signal });
    } catch (error) {
      return { status: 'failed', reason: (error as Error).message };
    }
    return { status: 'skipped', reason: 'summary not used by this stand-in' };
  },
});

/** Replaces old tool results with a note: the structural fallback that still shrinks the run. */
const noteTier = (): TierPlugin => ({
  specificationVersion: 'v1',
  kind: 'tier',
  id: 'notes',
  category: 'structural',
  async apply(messages, { protectedStart }) {
    const out = messages.map(
      (message, index): Message =>
        index < protectedStart && message.role === 'tool' && textOf(message.content).length > 100
          ? { role: 'tool', toolCallId: message.toolCallId, content: '[removed]', meta: { ctxkit: { kind: 'note', by: 'notes', replaces: [`#${index}`] } } }
          : message,
    );
    return { status: 'applied', messages: out };
  },
});

const silent = (calls: { count: number }): SummarizerPlugin => ({
  specificationVersion: 'v1',
  kind: 'summarizer',
  id: 'silent-model',
  summarize: () => {
    calls.count += 1;
    return new Promise<string>(() => {}); // never answers, ignores the signal
  },
});

const policy = { specificationVersion: 'v1', kind: 'threshold-policy', id: 'fixed', decide: () => ({ threshold: 2_000, target: 1_000, reason: 'fixed' }) } as const;

/** A manager whose summarizer time is 50 ms a compaction, skipped for the next 2 after a timeout. */
const guardedManager = (plugins: (TierPlugin | SummarizerPlugin)[]) =>
  createContextManager({ model: 'm', contextWindow: 100_000, policy, keepRecentTurns: 1, summarizerGuard: { compactionTimeoutMs: 50, skipCompactions: 2 }, plugins });

describe('a summarizer that never answers', () => {
  it('bounds the compaction, reports it timed out, skips it for the next compactions, then tries again', async () => {
    const calls = { count: 0 };
    const manager = guardedManager([summaryishTier(), noteTier(), silent(calls)]);
    const first = await manager.prepare(run(10, 'a'));
    expect(first.report.decision).toBe('compacted');
    expect(first.report.tiers[0]).toMatchObject({ id: 'summaryish', status: 'failed', reason: expect.stringContaining('did not answer within') });
    expect(first.report.summarizer).toMatchObject({ id: 'silent-model', status: 'timed-out', calls: 1, failures: 1, reason: expect.stringContaining('skipped for the next 2 compactions') });
    expect(calls.count).toBe(1);

    const second = await manager.prepare(run(10, 'b'));
    expect(second.report.decision).toBe('compacted');
    expect(second.report.summarizer).toMatchObject({
      status: 'skipped',
      calls: 0,
      reason: expect.stringContaining('timed out after 50 ms in an earlier compaction; tried again after 1 more compaction'),
    });
    expect(second.report.tiers[0]).toMatchObject({ status: 'skipped', reason: 'no summarizer' });
    const third = await manager.prepare(run(10, 'c'));
    expect(third.report.summarizer).toMatchObject({ status: 'skipped', reason: expect.stringContaining('tried again at the next compaction') });
    expect(calls.count).toBe(1);

    const fourth = await manager.prepare(run(10, 'd'));
    expect(fourth.report.summarizer?.status).toBe('timed-out');
    expect(calls.count).toBe(2);
  });

  it('counts only the calls that reached the summarizer: a later tier asking past the deadline is answered by the guard', async () => {
    const calls = { count: 0 };
    const manager = guardedManager([summaryishTier(), { ...summaryishTier(), id: 'summaryish-again' }, noteTier(), silent(calls)]);
    const { report } = await manager.prepare(run(10, 'a'));
    expect(report.tiers[1]).toMatchObject({ id: 'summaryish-again', status: 'failed', reason: expect.stringContaining('did not answer within') });
    expect(calls.count).toBe(1);
    expect(report.summarizer).toMatchObject({ status: 'timed-out', calls: 1, failures: 1 });
  });

  it('has a time bound by default, and reports a summarizer that answered', async () => {
    const guard = createSummarizerGuard();
    const answering: SummarizerPlugin = { specificationVersion: 'v1', kind: 'summarizer', id: 'ok', summarize: async () => 'summary' };
    const compaction = guard.begin(answering);
    await expect(compaction.summarizer!.summarize({ messages: [], instructions: '' })).resolves.toBe('summary');
    expect(compaction.finish()).toEqual({ id: 'ok', status: 'answered', calls: 1, failures: 0 });
    expect(guard.begin(undefined).finish()).toBeUndefined();
    expect(() => createSummarizerGuard({ compactionTimeoutMs: 0 })).toThrow('[ctxkit:engine] summarizerGuard.compactionTimeoutMs must be above zero (or Infinity), got 0');
  });

  it('skips a summarizer whose every call failed in 3 compactions in a row', async () => {
    const guard = createSummarizerGuard({ skipCompactions: 1 });
    const failing: SummarizerPlugin = { specificationVersion: 'v1', kind: 'summarizer', id: 'down', summarize: () => Promise.reject(new Error('ECONNREFUSED')) };
    for (let round = 0; round < 3; round++) {
      const compaction = guard.begin(failing);
      await expect(compaction.summarizer!.summarize({ messages: [], instructions: '' })).rejects.toThrow('ECONNREFUSED');
      expect(compaction.finish()).toMatchObject({ status: 'failed', failures: 1 });
    }
    expect(guard.begin(failing)).toMatchObject({ summarizer: undefined });
    expect(guard.begin(failing).summarizer).toBeDefined();
  });
});

describe('a summarizer call that runs past its own limit', () => {
  it("is not asked again in the compaction after a tier gave up on it at the tier's own time limit, and is skipped after", async () => {
    /** A tier that waits `limitMs` for its summary, as the summary and trim tiers do with `timeoutMs`. */
    const patientTier = (id: string, limitMs: number): TierPlugin => ({
      ...summaryishTier(),
      id,
      async apply(messages, context) {
        if (!context.summarizer) return { status: 'skipped', reason: 'no summarizer' };
        const limit = new AbortController();
        const timer = setTimeout(() => limit.abort(new DOMException(`timed out after ${limitMs} ms`, 'TimeoutError')), limitMs);
        const gaveUp = new Promise<never>((_, reject) => limit.signal.addEventListener('abort', () => reject(limit.signal.reason), { once: true }));
        try {
          await Promise.race([context.summarizer.summarize({ messages: messages.slice(1, context.protectedStart), instructions: 'summarize', signal: limit.signal }), gaveUp]);
        } catch (error) {
          return { status: 'failed', reason: (error as Error).message };
        } finally {
          clearTimeout(timer);
        }
        return { status: 'skipped', reason: 'summary not used by this stand-in' };
      },
    });
    const calls = { count: 0 };
    // The compaction's own bound (90 s by default) is far away: only the tiers' limits run out.
    const manager = createContextManager({
      model: 'm',
      contextWindow: 100_000,
      policy,
      keepRecentTurns: 1,
      plugins: [patientTier('summary', 30), patientTier('trim', 10_000), noteTier(), silent(calls)],
    });
    const { report } = await manager.prepare(run(10, 'a'));
    expect(calls.count).toBe(1);
    expect(report.tiers[1]).toMatchObject({
      id: 'trim',
      status: 'failed',
      reason: expect.stringContaining('"silent-model" is not asked again in this compaction: it timed out (timed out after 30 ms)'),
    });
    expect(report.summarizer).toMatchObject({ status: 'timed-out', calls: 1, failures: 1, reason: expect.stringContaining('skipped for the next 3 compactions') });
    const next = await manager.prepare(run(10, 'b'));
    expect(next.report.summarizer).toMatchObject({ status: 'skipped', calls: 0 });
    expect(calls.count).toBe(1);
  });

  it('treats a summarizer that rejects with its own timeout as timed out for the rest of the compaction', async () => {
    let calls = 0;
    const slow: SummarizerPlugin = {
      specificationVersion: 'v1',
      kind: 'summarizer',
      id: 'slow-api',
      summarize: () => {
        calls += 1;
        return Promise.reject(new CtxkitError({ code: 'TIMEOUT', source: 'openai', message: 'https://api.example/v1/responses did not answer within 60000 ms' }));
      },
    };
    const compaction = createSummarizerGuard().begin(slow);
    await expect(compaction.summarizer!.summarize({ messages: [], instructions: '' })).rejects.toThrow('did not answer within 60000 ms');
    await expect(compaction.summarizer!.summarize({ messages: [], instructions: '' })).rejects.toThrow(
      '[ctxkit:engine] summarizer "slow-api" is not asked again in this compaction: it timed out (https://api.example/v1/responses did not answer within 60000 ms)',
    );
    expect(calls).toBe(1);
    expect(compaction.finish()).toMatchObject({ status: 'timed-out', calls: 1, failures: 1 });
  });
});

describe('two concurrent prepare() calls of one transcript', () => {
  it('share one compaction: the summarizer is called once', async () => {
    let summaries = 0;
    const counting: SummarizerPlugin = {
      specificationVersion: 'v1',
      kind: 'summarizer',
      id: 'counting',
      summarize: async () => {
        summaries += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return 'summary';
      },
    };
    const manager = createContextManager({ model: 'm', contextWindow: 100_000, policy, keepRecentTurns: 1, plugins: [summaryishTier(), noteTier(), counting] });
    const messages = run(10);
    const [a, b] = await Promise.all([manager.prepare(messages), manager.prepare(messages)]);
    expect(summaries).toBe(1);
    expect(a.messages).toEqual(b.messages);
    expect(a.report.decision).toBe('compacted');
    expect(b.report.decision).toBe('compacted');
    // a different transcript compacts on its own
    await Promise.all([manager.prepare(run(10, 'x')), manager.prepare(run(10, 'y'))]);
    expect(summaries).toBe(3);
  });
});
