import { corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import type { Message } from '@ctxkit/core';
import { costOf, defaultTrigger, type SimulationResult, simulateRun } from './simulate.ts';

const corpus = corpusDir();
if (!corpus) console.warn(`[ctxkit] ${corpusMissingMessage}`);

// DESIGN.md §3 on real runs (issue 4's proof): a 32,000-token window, a 4,096-token output reserve,
// the offline factual-note summarizer standing in for the model.
describe.skipIf(!corpus)('replaying every recorded run through the default preset at 32K', () => {
  it.each(listTrajectories())(
    '%s: every request fits, pairs intact, system identical, recent rounds verbatim, archives restore',
    async (file) => {
      const recorded = readTrajectory(file);
      const result = await simulateRun(recorded, { window: 32_000, maxOutputTokens: 4_096, policy: 'ctxkit', check: true });
      expect(result.violations).toEqual([]);
      expect(result.overflows).toBe(0);
      expect(result.peakInputTokens + 4_096).toBeLessThanOrEqual(32_000);
      const uncompacted = await simulateRun(recorded, { window: 32_000, maxOutputTokens: 4_096, policy: 'none' });
      if (uncompacted.overflows > 0) expect(result.compactions).toBeGreaterThan(0);
    },
    120_000,
  );
});

describe('the cost of a replay', () => {
  const base = { totalInputTokens: 1_000_000, cachedPrefixTokens: 600_000, outputTokens: 100_000, summarizerInputTokens: 200_000, summarizerOutputTokens: 10_000 } as SimulationResult;

  it('prices uncached input, cached input, output, and every summary at the summarizer model prices', () => {
    const cost = costOf(base, { input: 2.5, cachedInput: 1.25, output: 10 }, { input: 0.15, output: 0.6 });
    expect(cost).toBeCloseTo((400_000 * 2.5 + 600_000 * 1.25 + 100_000 * 10 + 200_000 * 0.15 + 10_000 * 0.6) / 1e6, 10);
  });

  it('prices uncached input as a cache write where the provider bills one', () => {
    const prices = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
    expect(costOf(base, prices, prices)).toBeCloseTo((400_000 * 3.75 + 600_000 * 0.3 + 100_000 * 15 + 200_000 * 3 + 10_000 * 15) / 1e6, 10);
  });
});

describe('simulateRun options', () => {
  // The engine's error for a bad argument (decision 0105): a CtxkitError with code INVALID_ARGUMENT, so a caller checks one code.
  const invalid = (message: unknown) =>
    expect.objectContaining({ name: 'CtxkitError', code: 'INVALID_ARGUMENT', source: 'simulate', message: typeof message === 'string' ? `[ctxkit:simulate] ${message}` : message });
  const run = (): Message[] => {
    const messages: Message[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix parse_config in src/config.py.' },
    ];
    for (let step = 0; step < 60; step += 1) {
      messages.push({
        role: 'assistant',
        content: `Reading src/mod_${step}.py for parse_config.`,
        toolCalls: [{ id: `c${step}`, name: 'bash', arguments: JSON.stringify({ command: `cat src/mod_${step}.py` }) }],
      });
      messages.push({ role: 'tool', toolCallId: `c${step}`, content: `def helper_${step}(value):\n    return parse_config(value)\n`.repeat(30) });
    }
    messages.push({ role: 'assistant', content: 'Editing src/config.py and src/mod_3.py.' });
    return messages;
  };

  it('makes every policy compact at triggerTokens instead of its own rule', async () => {
    const own = await simulateRun(run(), { window: 64_000, policy: 'codex' });
    expect(own.compactions).toBe(0);
    const triggered = await simulateRun(run(), { window: 64_000, policy: 'codex', triggerTokens: 8_000 });
    expect(triggered.compactions).toBeGreaterThan(0);
    expect(triggered.triggerTokens).toBe(8_000);
    const sliding = await simulateRun(run(), { window: 64_000, policy: 'sliding-window', triggerTokens: 8_000 });
    expect(sliding.peakInputTokens).toBeLessThanOrEqual(8_000);
    // The sliding window dropped the task, so the last move's src/config.py (named only there) was not held.
    expect(sliding.retention).toBeLessThan(1);
    expect(sliding.farRetention).toBeLessThan(1);
  }, 60_000);

  it('counts and prices the summaries a policy asks for, and reports retention', async () => {
    const result = await simulateRun(run(), { window: 64_000, policy: 'codex', triggerTokens: 8_000, prices: { input: 2.5, output: 10 } });
    expect(result.summarizerCalls).toBe(result.compactions);
    expect(result.summarizerInputTokens).toBeGreaterThan(8_000 * result.summarizerCalls);
    expect(result.summarizerOutputTokens).toBeGreaterThan(0);
    const withoutSummaries = costOf({ ...result, summarizerInputTokens: 0, summarizerOutputTokens: 0 }, { input: 2.5, output: 10 }, { input: 2.5, output: 10 });
    expect(result.estimatedCostUsd).toBeGreaterThan(withoutSummaries);
    expect(result.retentionCounts.namesUsed).toBeGreaterThan(0);
  }, 60_000);

  it('rejects a usageSkew or triggerTokens out of range', async () => {
    await expect(simulateRun(run(), { window: 64_000, usageSkew: 0 })).rejects.toThrow(invalid('usageSkew must be above 0 and at most 10, got 0'));
    await expect(simulateRun(run(), { window: 64_000, triggerTokens: 1.5 })).rejects.toThrow(invalid('triggerTokens must be a whole number above 0, got 1.5'));
  });

  it('rejects a policy it does not know and a window that is not a whole number of tokens (decision 0105)', async () => {
    await expect(simulateRun(run(), { window: 64_000, policy: 'codexx' as never })).rejects.toThrow(invalid(expect.stringContaining('policy must be one of none, sliding-window, summarize-at-90')));
    for (const window of [1.5, Number.NaN, 0, -5])
      await expect(simulateRun(run(), { window }), String(window)).rejects.toThrow(invalid(`window must be a whole number of tokens above 0, got ${window}`));
  });

  it('sends a request over the window to the provider, which rejects it; ctxkit classifies the error, recovers and says so', async () => {
    const messages = run();
    // A task larger than the window: nothing may fold it, so the request overflows and recover cannot fix it.
    messages[1] = { role: 'user', content: `Fix parse_config. ${'Context line for the task.\n'.repeat(2_000)}` };
    const result = await simulateRun(messages.slice(0, 6), { window: 8_000, maxOutputTokens: 1_000, policy: 'ctxkit' });
    expect(result.overflows).toBeGreaterThan(0);
    expect(result.recoveredOverflows).toBe(0);
    expect(result.warnings).toContain('step 1: overflow: the provider counted 12,021 tokens, recover said give-up: no tier could shrink the transcript');
    expect(result.warnings[0]).toMatch(/^step 1: over the threshold \(\d+ > 4000\) and no tier could shrink it$/);
  }, 60_000);

  it("names whose count each warning's figure is: the provider's tokenizer or the manager's estimate (decision 0105)", async () => {
    const messages = run().slice(0, 12);
    // The newest tool result alone is larger than the window: recovery cannot bring it under.
    messages[9] = { role: 'tool', toolCallId: 'c3', content: 'def huge(value):\n    return parse_config(value)\n'.repeat(600) };
    const result = await simulateRun(messages, { window: 4_000, maxOutputTokens: 500, policy: 'ctxkit' });
    const recovered = result.warnings.find((warning) => warning.includes('recovering'));
    expect(recovered).toMatch(/^step \d+: after recovering from an overflow the provider still counted \d{1,3}(,\d{3})* tokens, over the 3,500 tokens the window holds with its output reserve$/);
    const compacted = result.warnings.find((warning) => warning.includes('compacting'));
    expect(compacted).toMatch(/^step \d+: after compacting the manager estimated \d{1,3}(,\d{3})* tokens, still over its threshold of \d{1,3}(,\d{3})* tokens$/);
  }, 60_000);
});

describe.skipIf(!corpus)('retention on a recorded run at 32K', () => {
  it('ctxkit keeps at least as much of what the agent reaches back for as every peer that fits, run at its threshold', async () => {
    const recorded = readTrajectory('minisweagent-deepseek-astroid-1333.jsonl');
    const ctxkit = await simulateRun(recorded, { window: 32_000, policy: 'ctxkit' });
    expect(ctxkit.overflows).toBe(0);
    const trigger = defaultTrigger(32_000, 4_096);
    for (const policy of ['sliding-window', 'summarize-at-90', 'codex', 'opencode'] as const) {
      const peer = await simulateRun(recorded, { window: 32_000, policy, triggerTokens: trigger });
      expect(peer.overflows, policy).toBe(0);
      expect(ctxkit.farRetention, policy).toBeGreaterThanOrEqual(peer.farRetention);
    }
  }, 120_000);

  it('still never overflows when the provider reports half or a tenth of the true input', async () => {
    const recorded = readTrajectory('minisweagent-deepseek-astroid-1333.jsonl');
    for (const usageSkew of [0.5, 0.1]) expect((await simulateRun(recorded, { window: 32_000, policy: 'ctxkit', usageSkew })).overflows).toBe(0);
  }, 120_000);
});
