import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Message, memoryStore, type ProviderPlugin, type ThresholdPolicyPlugin, type TierPlugin, type TokenizerPlugin, textOf } from '@ctxkit/core';
import { deterministicSummarizer } from '@ctxkit/testkit';
import { createMeter, type Meter, tiktokenCounter } from '@ctxkit/tokens';
import { describe, expect, it } from 'vitest';
import { createContextManager } from './context-manager.ts';
import type { ManagerEvent } from './events.ts';
import { editedFilesSource, taskSource } from './reinjection-sources.ts';

const tier = (id: string, apply: TierPlugin['apply'], category: TierPlugin['category'] = 'structural'): TierPlugin => ({ specificationVersion: 'v1', kind: 'tier', id, category, apply });

/** Replaces tool results before the protected region with one-line notes (a stand-in for microcompaction). */
const noteTier = (id = 'notes', category: TierPlugin['category'] = 'structural') =>
  tier(
    id,
    async (messages, { protectedStart }) => {
      let changed = false;
      const out = messages.map((message, index): Message => {
        if (index >= protectedStart || message.role !== 'tool' || textOf(message.content).length < 200) return message;
        changed = true;
        return { role: 'tool', toolCallId: message.toolCallId, content: '[output removed]', meta: { ctxkit: { kind: 'note', by: id, replaces: [message.id ?? `#${index}`] } } };
      });
      return changed ? { status: 'applied', messages: out } : { status: 'skipped', reason: 'no long tool output' };
    },
    category,
  );

const words = (count: number, seed = 'alpha') => Array.from({ length: count }, (_, index) => `${seed}${index % 97} result line ${index}`).join('\n');

/** A coding-agent run: system, task, then `steps` rounds of a bash call with a long result. */
function run(steps: number, outputWords = 400): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: 'Fix the off-by-one error in src/range.ts and make the tests pass.' },
  ];
  for (let step = 0; step < steps; step++) {
    messages.push({ role: 'assistant', content: `Step ${step}: looking further.`, toolCalls: [{ id: `c${step}`, name: 'bash', arguments: JSON.stringify({ command: `cat src/file${step}.ts` }) }] });
    messages.push({ role: 'tool', toolCallId: `c${step}`, toolName: 'bash', content: words(outputWords, `s${step}`) });
  }
  return messages;
}

const fixedPolicy = (threshold: number, target = Math.floor(threshold * 0.6)): ThresholdPolicyPlugin<'fixed'> => ({
  specificationVersion: 'v1',
  kind: 'threshold-policy',
  id: 'fixed',
  decide: () => ({ threshold, target, reason: `fixed at ${threshold}` }),
});

describe('prepare', () => {
  it('leaves a request under the threshold alone and returns the same array', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, plugins: [noteTier(), tiktokenCounter('o200k_base')] });
    const messages = run(3);
    const { messages: prepared, report } = await manager.prepare(messages);
    expect(prepared).toBe(messages);
    expect(report).toMatchObject({ compacted: false, decision: 'under-threshold', threshold: 100_000, target: 60_000 });
    expect(report.measurement.total).toBeGreaterThan(report.measurement.floor);
  });

  it('takes the window from the model actually serving each request (a fallback with a smaller window compacts)', async () => {
    const windows: Record<string, number> = { 'big-model': 200_000, 'small-fallback': 16_000 };
    const manager = createContextManager({ model: 'big-model', contextWindow: (model) => windows[model], plugins: [noteTier(), tiktokenCounter('o200k_base')] });
    const messages = run(12);
    const primary = await manager.prepare(messages);
    expect(primary.report).toMatchObject({ model: 'big-model', threshold: 100_000, compacted: false });
    const fallback = await manager.prepare(messages, { model: 'small-fallback' });
    expect(fallback.report).toMatchObject({ model: 'small-fallback', threshold: 8_000, compacted: true, decision: 'compacted' });
    expect(fallback.report.after).toBeLessThanOrEqual(fallback.report.target);
    // and back on the primary, the primary's window applies again
    expect((await manager.prepare(messages)).report.threshold).toBe(100_000);
  });

  it('fails clearly when no window is known for the serving model', async () => {
    const manager = createContextManager({ model: 'known', contextWindow: (model) => (model === 'known' ? 100_000 : undefined) });
    await expect(manager.prepare(run(1), { model: 'mystery' })).rejects.toThrow(/no context window known for model "mystery"/);
  });

  it('does not compact proactively when that is switched off', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, proactive: false, plugins: [noteTier(), tiktokenCounter('o200k_base')] });
    const { report } = await manager.prepare(run(12));
    expect(report).toMatchObject({ compacted: false, decision: 'proactive-off' });
  });

  it('confirms with an exact count before compacting on an estimate alone', async () => {
    // A tokenizer whose ranks are not loaded yet, so the first measurement is an estimate.
    const lazyCounter = () => {
      const base = tiktokenCounter('o200k_base');
      const counter: TokenizerPlugin<'lazy'> & { loaded: boolean } = {
        specificationVersion: 'v1',
        kind: 'tokenizer',
        id: 'lazy',
        loaded: false,
        count: (text) => base.count(text),
        load: async () => {
          await base.load?.();
          counter.loaded = true;
        },
      };
      return counter;
    };
    // Plain English: about 4.5 characters a token, so the heuristic (3.2) overestimates.
    const messages: Message[] = [
      { role: 'system', content: 'You are a careful assistant.' },
      { role: 'user', content: 'Summarize the following report. '.concat('The quarterly review found that customers appreciated the faster delivery. '.repeat(300)) },
    ];
    const probe = createContextManager({ model: 'm', contextWindow: 200_000, plugins: [lazyCounter()] });
    const estimate = (await probe.prepare(messages)).report.measurement;
    expect(estimate.source).toBe('estimate');
    await probe.meter.ready();
    const exact = probe.meter.countMessages(messages, { exact: true, model: 'm' });
    expect(estimate.total).toBeGreaterThan(exact);
    const threshold = Math.floor((estimate.total + exact) / 2);
    let tierRan = false;
    const watched = tier('watched', async () => {
      tierRan = true;
      return { status: 'skipped', reason: 'should not run' };
    });
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, policy: fixedPolicy(threshold), plugins: [watched, lazyCounter()] });
    const { report } = await manager.prepare(messages);
    expect(report).toMatchObject({ compacted: false, decision: 'not-confirmed' });
    expect(report.measurement).toMatchObject({ source: 'exact', confirmed: true });
    expect(report.measurement.total).toBe(exact);
    expect(tierRan).toBe(false);
  });

  it('rejects a malformed transcript with INVALID_TRANSCRIPT naming the message', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 100_000 });
    const bad = [
      { role: 'user', content: 'x' },
      { role: 'tool', toolCallId: 'nope', content: 'y' },
    ] as Message[];
    await expect(manager.prepare(bad)).rejects.toThrow(expect.objectContaining({ code: 'INVALID_TRANSCRIPT', message: expect.stringContaining('message 1 toolCallId') }));
  });
});

describe('the tier loop', () => {
  it('runs tiers in order and stops once the target is reached', async () => {
    const ran: string[] = [];
    const spy = (id: string) =>
      tier(id, async (messages, context) => {
        ran.push(id);
        return noteTier(id).apply(messages, context);
      });
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [spy('first'), spy('second'), tiktokenCounter('o200k_base')] });
    const { report } = await manager.prepare(run(12));
    expect(ran).toEqual(['first']);
    expect(report.tiers.map((entry) => [entry.id, entry.status])).toEqual([['first', 'applied']]);
    expect(report.tiers[0]!.after).toBeLessThan(report.tiers[0]!.before);
  });

  it('keeps the system message, the task and the protected recent rounds verbatim', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [noteTier(), tiktokenCounter('o200k_base')] });
    const messages = run(12);
    const { messages: prepared, report } = await manager.prepare(messages);
    expect(prepared[0]).toBe(messages[0]);
    expect(prepared[1]).toBe(messages[1]);
    const region = report.protectedRegion!;
    expect(region.by).toBe('rounds');
    expect(prepared.slice(-(messages.length - region.start))).toEqual(messages.slice(region.start));
  });

  it('lets a tier that throws or breaks the transcript fail, and runs the next', async () => {
    const thrower = tier('thrower', async () => {
      throw new Error('model unavailable');
    });
    const vandal = tier('vandal', async (messages) => ({ status: 'applied', messages: [{ role: 'system', content: 'rewritten' }, ...messages.slice(1)] }));
    const orphaner = tier('orphaner', async (messages) => {
      const first = messages.findIndex((message) => message.role === 'assistant');
      return { status: 'applied', messages: messages.filter((_, index) => index !== first) };
    });
    const recentEditor = tier('recent-editor', async (messages) => ({ status: 'applied', messages: [...messages.slice(0, -1), { ...messages.at(-1)!, content: 'shortened' } as Message] }));
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [thrower, vandal, orphaner, recentEditor, noteTier(), tiktokenCounter('o200k_base')] });
    const messages = run(12);
    const { messages: prepared, report } = await manager.prepare(messages);
    expect(report.tiers.map((entry) => [entry.id, entry.status])).toEqual([
      ['thrower', 'failed'],
      ['vandal', 'failed'],
      ['orphaner', 'failed'],
      ['recent-editor', 'failed'],
      ['notes', 'applied'],
    ]);
    expect(report.tiers[0]!.reason).toBe('threw: model unavailable');
    expect(report.tiers[1]!.reason).toBe('changed the system message');
    expect(report.tiers[2]!.reason).toMatch(/returned an invalid transcript \(message \d+ toolCallId/);
    expect(report.tiers[3]!.reason).toBe('changed the protected recent messages');
    expect(prepared[0]).toEqual(messages[0]);
    expect(prepared.every((message) => !textOf(message.content).includes('model unavailable'))).toBe(true);
  });

  it('skips on-device tiers when token compression is off; structural tiers still run', async () => {
    const manager = createContextManager({
      model: 'm',
      contextWindow: 16_000,
      onDeviceCompaction: false,
      plugins: [noteTier('webllm', 'on-device'), noteTier('notes'), tiktokenCounter('o200k_base')],
    });
    const { report } = await manager.prepare(run(12));
    expect(report.tiers.map((entry) => [entry.id, entry.status, entry.reason])).toEqual([
      ['webllm', 'skipped', 'on-device compaction is switched off'],
      ['notes', 'applied', undefined],
    ]);
  });
});

describe("a tier's own token count", () => {
  /** The notes tier, reporting `claim(output, counted)` as its tokens, where `counted` is its honest count. */
  const claimingTier = (claim: (counted: number) => number) =>
    tier('claiming', async (messages, context) => {
      const outcome = await noteTier().apply(messages, context);
      return outcome.status === 'applied' ? { ...outcome, tokens: claim(context.count(outcome.messages)) } : outcome;
    });

  it('is checked against the engine count: a wrong figure is reported and the engine figure is used', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [claimingTier(() => 1), tiktokenCounter('o200k_base')] });
    const { messages: prepared, report } = await manager.prepare(run(12));
    const counted = manager.meter.countMessages(prepared, { model: 'm' });
    expect(report.tiers).toHaveLength(1);
    expect(report.tiers[0]).toMatchObject({ id: 'claiming', status: 'applied', after: counted, claimedTokens: 1 });
    expect(report.after).toBe(counted);
  });

  it('cannot hide an output that grew behind a small figure', async () => {
    const grower = tier('grower', async (messages, context) => {
      const output = [...messages.slice(0, 2), { role: 'user', content: words(300, 'padding') } as Message, ...messages.slice(2)];
      return { status: 'applied', messages: output, tokens: context.currentTokens - 1 };
    });
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [grower, tiktokenCounter('o200k_base')] });
    const { report } = await manager.prepare(run(12));
    expect(report.tiers[0]).toMatchObject({ id: 'grower', status: 'failed', reason: expect.stringMatching(/^output grew from \d+ to \d+ tokens$/) });
    expect(report.tiers[0]!.claimedTokens).toBe(report.tiers[0]!.before - 1);
    expect(report.tiers[0]!.after).toBe(report.tiers[0]!.before);
  });

  it('is taken without a mismatch and without tokenizing the output again when it is right', async () => {
    const base = tiktokenCounter('o200k_base');
    let calls = 0;
    const counting: TokenizerPlugin<'counting'> = {
      specificationVersion: 'v1',
      kind: 'tokenizer',
      id: 'counting',
      count: (text) => {
        calls++;
        return base.count(text);
      },
    };
    let callsAtReturn = -1;
    let callsAtEnd = -2;
    const honest = tier('honest', async (messages, context) => {
      const outcome = await noteTier().apply(messages, context);
      if (outcome.status !== 'applied') return outcome;
      const tokens = context.count(outcome.messages);
      callsAtReturn = calls;
      return { ...outcome, tokens };
    });
    const manager = createContextManager({
      model: 'm',
      contextWindow: 16_000,
      plugins: [honest, counting],
      onEvent: (event) => {
        if (event.type === 'tier-end') callsAtEnd = calls;
      },
    });
    const { report } = await manager.prepare(run(12));
    expect(report.tiers[0]).toMatchObject({ id: 'honest', status: 'applied' });
    expect(report.tiers[0]).not.toHaveProperty('claimedTokens');
    expect(callsAtEnd).toBe(callsAtReturn);
  });
});

describe('one size per step', () => {
  it("starts the tier loop from prepare's exact measurement instead of counting the transcript again", async () => {
    const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
    const counted: (readonly Message[])[] = [];
    const watched: Meter = {
      ...meter,
      countMessages: (list, options) => {
        counted.push(list);
        return meter.countMessages(list, options);
      },
    };
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, meter: watched, plugins: [noteTier()] });
    const messages = run(12);
    const { report } = await manager.prepare(messages);
    expect(report.measurement.source).toBe('exact');
    expect(report.tiers[0]).toMatchObject({ status: 'applied', before: report.measurement.total });
    expect(counted.includes(messages)).toBe(false);
  });

  it("counts locally once when prepare's figure rests on the provider's report (tiers count locally)", async () => {
    const messages = run(12);
    const earlier = messages.slice(0, -2);
    const probe = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
    await probe.ready();
    const local = (list: readonly Message[]) => probe.countMessages(list, { model: 'm' });
    // Uncalibrated, so the local count stays apart from the provider's figure.
    const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base'), calibration: false });
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, policy: fixedPolicy(local(earlier) + 100, 8_000), meter, plugins: [noteTier()] });
    expect((await manager.prepare(earlier)).report.decision).toBe('under-threshold');
    manager.record({ usage: { inputTokens: local(earlier) + 500 }, messageCount: earlier.length });
    const { report } = await manager.prepare(messages);
    expect(report.measurement.source).toBe('reported');
    expect(report.measurement.total).toBe(local(messages) + 500);
    // The local count the tiers use, not the anchored figure prepare decided on.
    expect(report.tiers[0]).toMatchObject({ status: 'applied', before: local(messages) });
  });
});

describe('the circuit breaker and refills', () => {
  it('stops after 3 compactions that did not shrink, and tries again after 25% growth', async () => {
    let calls = 0;
    const useless = tier('useless', async () => {
      calls += 1;
      return { status: 'skipped', reason: 'nothing to do' };
    });
    const events: ManagerEvent[] = [];
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, policy: fixedPolicy(3_000), plugins: [useless, tiktokenCounter('o200k_base')], onEvent: (event) => events.push(event) });
    const messages = run(6);
    for (let step = 0; step < 5; step++) await manager.prepare(messages);
    expect(calls).toBe(3);
    expect(manager.state()).toMatchObject({ open: true, consecutiveFailures: 3 });
    expect(events.filter((event) => event.type === 'breaker-open')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'breaker-held')).toHaveLength(2);
    const last = await manager.prepare(messages);
    expect(last.report.decision).toBe('breaker-open');
    // grown by well over 25%: one more try
    await manager.prepare(run(10));
    expect(calls).toBe(4);
  });

  it('reports a refill when the transcript is back over the threshold within 2 steps', async () => {
    const events: ManagerEvent[] = [];
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [noteTier(), tiktokenCounter('o200k_base')], onEvent: (event) => events.push(event) });
    const first = await manager.prepare(run(12));
    expect(first.report.compacted).toBe(true);
    // The agent appends a huge tool result right after the compaction.
    const grown: Message[] = [
      ...first.messages,
      { role: 'assistant', content: '', toolCalls: [{ id: 'big', name: 'bash', arguments: '{"command":"cat big.log"}' }] },
      { role: 'tool', toolCallId: 'big', content: words(3_000) },
    ];
    const second = await manager.prepare(grown);
    expect(second.report.refill).toBe(true);
    expect(events.some((event) => event.type === 'refill')).toBe(true);
    expect(manager.state().refills).toBe(1);
  });
});

describe('record', () => {
  it('anchors the next measurement on the reported input tokens', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 200_000, plugins: [tiktokenCounter('o200k_base')] });
    const messages = run(3);
    await manager.prepare(messages);
    manager.record({ model: 'm', usage: { inputTokens: 50_000 }, messageCount: messages.length });
    const next = [...messages, { role: 'assistant', content: 'Next step.' } as Message];
    const { report } = await manager.prepare(next);
    expect(report.measurement.source).toBe('reported');
    expect(report.measurement.total).toBeGreaterThan(50_000);
    expect(report.measurement.total).toBeLessThan(50_100);
  });

  it('rejects usage without a number of input tokens', () => {
    const manager = createContextManager({ model: 'm', contextWindow: 200_000 });
    expect(() => manager.record({ usage: { inputTokens: Number.NaN }, messageCount: 1 })).toThrow(/usage.inputTokens/);
  });
});

describe('recover', () => {
  const overflow = { kind: 'context_overflow' as const, fallback: false, reportedTokens: 40_000, limitTokens: 16_000 };

  it('learns the real window from an overflow, compacts below the new target once, and never loops', async () => {
    const events: ManagerEvent[] = [];
    const manager = createContextManager({ model: 'router/model', contextWindow: 64_000, plugins: [noteTier(), tiktokenCounter('o200k_base')], onEvent: (event) => events.push(event) });
    const messages = run(8);
    expect((await manager.prepare(messages)).report.compacted).toBe(false);
    const first = await manager.recover(messages, overflow);
    if (first.action !== 'retry') throw new Error(`expected a retry, got ${first.action}`);
    expect(first.report).toMatchObject({ decision: 'forced', threshold: 8_000 });
    expect(first.report.after).toBeLessThanOrEqual(first.report.target);
    expect(events.some((event) => event.type === 'window-learned' && event.contextWindow === 16_000)).toBe(true);
    expect((await manager.limitsFor()).limits).toMatchObject({ contextWindow: 16_000, source: 'learned' });
    const again = await manager.recover(first.messages, overflow);
    expect(again).toMatchObject({ action: 'give-up', reason: expect.stringContaining('already compacted') });
  });

  it('lowers the output budget on max_tokens and sends rate limits to the next provider', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 100_000, maxOutputTokens: 8_000 });
    expect(await manager.recover(run(1), { kind: 'max_tokens', fallback: false })).toMatchObject({ action: 'lower-output', maxOutputTokens: 4_000 });
    expect(await manager.recover(run(1), { kind: 'max_tokens', fallback: false, limitTokens: 100_000, reportedTokens: 97_000 })).toMatchObject({ maxOutputTokens: 3_000 });
    expect(await manager.recover(run(1), { kind: 'rate_limit', fallback: true, retryAfterMs: 2_000 })).toMatchObject({ action: 'fallback' });
    expect(await manager.recover(run(1), new Error('boom'))).toMatchObject({ action: 'give-up' });
  });

  it('says why it gave up on a raw error no provider plugin classifies, in the result and the recover event', async () => {
    const events: ManagerEvent[] = [];
    const manager = createContextManager({ model: 'openai:gpt-4o', contextWindow: 16_000, plugins: [noteTier(), tiktokenCounter('o200k_base')], onEvent: (event) => events.push(event) });
    const error = new Error("This model's maximum context length is 16000 tokens. However, your messages resulted in 20000 tokens.");
    const reason =
      'no provider plugin serves "openai:gpt-4o" to classify the error (an overflow is not recognised): register the provider\'s plugin, or pass a classification such as classifyError(error) of @ctxkit/provider-utils';
    expect(await manager.recover(run(12), error)).toMatchObject({ action: 'give-up', reason });
    expect(events.find((event) => event.type === 'recover')).toMatchObject({ action: 'give-up', reason });
    expect(await manager.recover(run(1), { kind: 'timeout', fallback: false })).toMatchObject({ action: 'give-up', reason: 'the error (timeout) is not one compaction can fix' });
  });

  it('gives up when overflow recovery is switched off', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, overflowRecovery: false, plugins: [noteTier(), tiktokenCounter('o200k_base')] });
    expect(await manager.recover(run(12), overflow)).toMatchObject({ action: 'give-up', reason: 'overflow recovery is switched off' });
  });
});

describe('reinjection', () => {
  const summaryTier = () =>
    tier('fold', async (messages, context) => {
      // Folds everything between the system message and the protected region, task included, into one note.
      const start = messages[0]?.role === 'system' ? 1 : 0;
      const folded = messages.slice(start, context.protectedStart);
      if (folded.length === 0) return { status: 'skipped', reason: 'nothing to fold' };
      const text = await deterministicSummarizer().summarize({ messages: [], instructions: '' });
      return {
        status: 'applied',
        messages: [
          ...messages.slice(0, start),
          { role: 'user', content: `[summary] ${text}`, meta: { ctxkit: { kind: 'summary', by: 'fold', replaces: folded.map((message, index) => message.id ?? `#${start + index}`) } } },
          ...messages.slice(context.protectedStart),
        ],
      };
    });

  it('puts back the task verbatim and the current content of edited files, re-read from disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-engine-'));
    writeFileSync(join(dir, 'range.ts'), 'export const range = (n) => [...Array(n).keys()]; // old');
    let resets = 0;
    const manager = createContextManager({
      model: 'm',
      contextWindow: 16_000,
      plugins: [summaryTier(), tiktokenCounter('o200k_base'), taskSource(), editedFilesSource({ cwd: dir })],
      reinjection: { resetReadCache: () => resets++ },
    });
    const messages = run(12);
    messages.splice(
      2,
      0,
      { role: 'assistant', content: '', toolCalls: [{ id: 'w1', name: 'write_file', arguments: JSON.stringify({ path: 'range.ts', content: 'old' }) }] },
      { role: 'tool', toolCallId: 'w1', content: 'written' },
    );
    // The file changed on disk after the agent wrote it: reinjection must show today's content.
    writeFileSync(join(dir, 'range.ts'), 'export const range = (n) => Array.from({ length: n }, (_, i) => i); // new');
    const { messages: prepared, report } = await manager.prepare(messages);
    expect(report.compacted).toBe(true);
    expect(report.reinjected.map((block) => block.source)).toEqual(['task', 'edited-files']);
    const reinjected = prepared.find((message) => message.meta?.ctxkit?.kind === 'reinjected')!;
    const text = textOf(reinjected.content);
    expect(text).toContain('Fix the off-by-one error in src/range.ts and make the tests pass.');
    expect(text).toContain('// new');
    expect(text).not.toContain('// old');
    expect(resets).toBe(1);
  });

  it('cuts the largest block first to stay within the budget', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-engine-'));
    writeFileSync(join(dir, 'huge.txt'), words(4_000));
    const manager = createContextManager({
      model: 'm',
      contextWindow: 32_000,
      plugins: [summaryTier(), tiktokenCounter('o200k_base'), taskSource(), editedFilesSource({ cwd: dir })],
      reinjection: { budgetTokens: 1_000 },
    });
    const messages = run(20);
    messages.splice(2, 0, { role: 'assistant', content: '', toolCalls: [{ id: 'w1', name: 'write_file', arguments: '{"path":"huge.txt"}' }] }, { role: 'tool', toolCallId: 'w1', content: 'ok' });
    const { report } = await manager.prepare(messages);
    const byTitle = Object.fromEntries(report.reinjected.map((block) => [block.source, block]));
    expect(byTitle.task).toMatchObject({ cut: false });
    expect(byTitle['edited-files']).toMatchObject({ cut: true });
    expect(report.reinjected.reduce((sum, block) => sum + block.tokens, 0)).toBeLessThanOrEqual(1_000);
  });
});

describe('record after a compaction', () => {
  it('anchors on the compacted request that was sent, not on the history before it', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [noteTier(), tiktokenCounter('o200k_base')] });
    const { messages, report } = await manager.prepare(run(12));
    expect(report.compacted).toBe(true);
    manager.record({ model: 'm', usage: { inputTokens: 4_000 }, messageCount: messages.length });
    const next = [...messages, { role: 'assistant', content: 'Continuing.' } as Message];
    const after = await manager.prepare(next);
    expect(after.report.measurement).toMatchObject({ source: 'reported', reportedTokens: 4_000 });
    expect(after.report.measurement.total).toBeLessThan(4_100);
  });
});

describe('the protected region', () => {
  it('narrows to the last round in a second pass when the request is still over the threshold', async () => {
    const messages: Message[] = [
      { role: 'system', content: 'You are a careful coding agent.' },
      { role: 'user', content: 'Fix the bug.' },
      { role: 'assistant', content: words(1_000, 'plan') },
    ];
    for (let turn = 0; turn < 6; turn++) {
      messages.push(
        { role: 'user', content: `Now check file ${turn}.` },
        { role: 'assistant', content: '', toolCalls: [{ id: `t${turn}`, name: 'bash', arguments: `{"command":"cat f${turn}"}` }] },
        { role: 'tool', toolCallId: `t${turn}`, content: words(50, `f${turn}`) },
      );
    }
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [noteTier(), tiktokenCounter('o200k_base')] });
    const { messages: prepared, report } = await manager.prepare(messages);
    expect(report.measurement.total).toBeGreaterThan(report.threshold);
    expect(report.protectedRegion).toMatchObject({ by: 'rounds', size: 1 });
    expect(report.tiers.map((entry) => entry.status)).toEqual(['skipped', 'applied']);
    expect(report.after).toBeLessThanOrEqual(report.threshold);
    expect(prepared.slice(-2)).toEqual(messages.slice(-2));
  });
});

describe('registered providers', () => {
  it('asks the provider serving each model for its window and classifies its errors with the model', async () => {
    const asked: string[] = [];
    const classified: unknown[] = [];
    const provider: ProviderPlugin<'local'> = {
      specificationVersion: 'v1',
      kind: 'provider',
      id: 'local',
      contextWindow: async (model) => {
        asked.push(model);
        return { contextWindow: model === 'qwen3:8b' ? 16_000 : 200_000, source: 'discovered' };
      },
      usage: () => undefined,
      classifyError: (error, context) => {
        classified.push(context);
        return { kind: 'context_overflow', fallback: false, limitTokens: 12_000, message: String(error) };
      },
    };
    const manager = createContextManager({ model: 'local:big-model', plugins: [provider, noteTier(), tiktokenCounter('o200k_base')] });
    expect((await manager.prepare(run(8))).report).toMatchObject({ threshold: 100_000, limits: { source: 'discovered' } });
    expect((await manager.prepare(run(8), { model: 'local:qwen3:8b' })).report.threshold).toBe(8_000);
    expect(asked).toEqual(['big-model', 'qwen3:8b']);
    const recovered = await manager.recover(run(8), new Error('context length exceeded'), { model: 'local:qwen3:8b' });
    expect(classified).toEqual([{ model: 'qwen3:8b' }]);
    expect(recovered.action).toBe('retry');
    expect((await manager.limitsFor('local:qwen3:8b')).limits).toMatchObject({ contextWindow: 12_000, source: 'learned' });
  });
});

describe('without a tokenizer', () => {
  it('compacts on calibrated estimates instead of failing', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 16_000, plugins: [noteTier()] });
    const { report } = await manager.prepare(run(12));
    expect(report).toMatchObject({ compacted: true, decision: 'compacted' });
    expect(report.measurement).toMatchObject({ source: 'estimate', confirmed: false });
    expect(report.after).toBeLessThanOrEqual(report.target);
  });
});

describe('recover: an overflow the output budget causes', () => {
  // vLLM's "maximum context length is 32769 tokens. However, you requested 33132 tokens (364 in the messages,
  // 32768 in the completion)", as classifyError of @ctxkit/provider-utils reads it.
  const outputLed = { kind: 'context_overflow' as const, fallback: false, limitTokens: 32_769, reportedTokens: 33_132, inputTokens: 364, requestedOutputTokens: 32_768 };

  it('lowers the output budget to what fits beside the input, and learns the window, instead of compacting a short transcript', async () => {
    const events: ManagerEvent[] = [];
    const manager = createContextManager({ model: 'm', contextWindow: 128_000, maxOutputTokens: 32_768, plugins: [noteTier(), tiktokenCounter('o200k_base')], onEvent: (event) => events.push(event) });
    const result = await manager.recover(run(1), outputLed);
    expect(result).toMatchObject({ action: 'lower-output', maxOutputTokens: 32_405 });
    expect(events.some((event) => event.type === 'window-learned' && event.contextWindow === 32_769)).toBe(true);
  });

  it('compacts when the input is itself above the target in the window the error names', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 32_769, plugins: [noteTier(), tiktokenCounter('o200k_base')] });
    const inputLed = { ...outputLed, reportedTokens: 34_000, inputTokens: 30_000, requestedOutputTokens: 4_000 };
    expect(await manager.recover(run(8), inputLed)).toMatchObject({ action: 'retry' });
  });

  it('with overflowRecovery off, gives up as before', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 128_000, overflowRecovery: false });
    expect(await manager.recover(run(1), outputLed)).toMatchObject({ action: 'give-up', reason: 'overflow recovery is switched off' });
  });

  it('reads a max_tokens error that states the input the same way: the limit less the input', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 128_000, maxOutputTokens: 32_768 });
    const maxTokens = { kind: 'max_tokens' as const, fallback: false, limitTokens: 32_769, reportedTokens: 32_768, inputTokens: 364, requestedOutputTokens: 32_768 };
    expect(await manager.recover(run(1), maxTokens)).toMatchObject({ action: 'lower-output', maxOutputTokens: 32_405 });
  });

  it('lowers to the limit less the input also when the manager was given no output budget (the error says what was asked)', async () => {
    const manager = createContextManager({ model: 'm', contextWindow: 128_000 });
    expect(await manager.recover(run(1), outputLed)).toMatchObject({ action: 'lower-output', maxOutputTokens: 32_405 });
  });

  it('reads no room from figures that are not token counts (NaN, negative, infinite) and learns no window from them', async () => {
    const events: ManagerEvent[] = [];
    const manager = createContextManager({ model: 'm', contextWindow: 128_000, maxOutputTokens: 32_768, plugins: [noteTier(), tiktokenCounter('o200k_base')], onEvent: (event) => events.push(event) });
    for (const figures of [
      { inputTokens: Number.NaN },
      { inputTokens: -40_000, requestedOutputTokens: 80_000 },
      { requestedOutputTokens: Number.NaN },
      { limitTokens: Number.POSITIVE_INFINITY },
      { limitTokens: Number.NaN },
    ]) {
      const result = await manager.recover(run(1), { ...outputLed, ...figures });
      expect(result.action).not.toBe('lower-output');
    }
    expect(events.filter((event) => event.type === 'window-learned').map((event) => event.type === 'window-learned' && event.contextWindow)).toEqual([32_769]);
  });
});

describe('createContextManager: options it does not read', () => {
  it('refuses a store passed as an option, saying it is a plugin, instead of archiving in memory without a word', () => {
    expect(() => createContextManager({ model: 'm', contextWindow: 16_000, store: memoryStore() } as never)).toThrow(
      'createContextManager has no option "store": a store is a plugin here: pass it in `plugins` (createCtxkit of the ctxkit package takes it as `store`)',
    );
  });

  it('refuses a misspelt option, listing the ones it has, and lets an undefined one through', () => {
    expect(() => createContextManager({ model: 'm', contextWindow: 16_000, keepRecentTurn: 2 } as never)).toThrow(
      /has no option "keepRecentTurn": its options are plugins, registry, model, .*keepRecentTurns/,
    );
    expect(createContextManager({ model: 'm', contextWindow: 16_000, store: undefined } as never).registry).toBeDefined();
  });
});
