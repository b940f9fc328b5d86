import { type Message, memoryStore, type ThresholdPolicyPlugin, type TierPlugin, textOf } from '@ctxkit/core';
import { hangingStore } from '@ctxkit/testkit';
import { tiktokenCounter } from '@ctxkit/tokens';
import { describe, expect, it } from 'vitest';
import { createContextManager } from './context-manager.ts';

const policy: ThresholdPolicyPlugin<'fixed'> = { specificationVersion: 'v1', kind: 'threshold-policy', id: 'fixed', decide: () => ({ threshold: 2_000, target: 1_200, reason: 'fixed' }) };

/** Archives the first old tool result under "r1" in context.store, then replaces old tool results with a note. */
const archivingTier = (id: string, archive: boolean): TierPlugin => ({
  specificationVersion: 'v1',
  kind: 'tier',
  id,
  category: 'structural',
  async apply(messages, { protectedStart, store }) {
    const first = messages.findIndex((message, index) => index < protectedStart && message.role === 'tool');
    if (first < 0) return { status: 'skipped', reason: 'nothing old' };
    if (archive) {
      try {
        await store.setItem('r1', textOf(messages[first]!.content));
      } catch (error) {
        return { status: 'failed', reason: `could not archive: ${(error as Error).message}`, error };
      }
    }
    const out = messages.map(
      (message, index): Message =>
        index < protectedStart && message.role === 'tool'
          ? { role: 'tool', toolCallId: message.toolCallId, content: '[gone]', meta: { ctxkit: { kind: 'note', by: id, replaces: [`#${index}`] } } }
          : message,
    );
    return { status: 'applied', messages: out };
  },
});

function run(steps: number, conversation: string): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Fix the bug.' }];
  for (let step = 0; step < steps; step++) {
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${step}`, name: 'bash', arguments: '{}' }] });
    messages.push({ role: 'tool', toolCallId: `c${step}`, content: `${conversation} output ${step}\n${'line of output '.repeat(60)}` });
  }
  return messages;
}

describe('conversationId', () => {
  it('puts what tiers archive under the conversation, so two conversations with the same handles keep their own', async () => {
    const store = memoryStore();
    for (const conversationId of ['ticket-1', 'ticket-2']) {
      const manager = createContextManager({
        model: 'm',
        contextWindow: 100_000,
        policy,
        keepRecentTurns: 1,
        conversationId,
        plugins: [archivingTier('archive', true), tiktokenCounter('o200k_base'), store],
      });
      const { report } = await manager.prepare(run(12, conversationId));
      expect(report.compacted).toBe(true);
    }
    expect(await store.getItem<string>('conversations:ticket-1:r1')).toMatch(/^ticket-1 output 0\n/);
    expect(await store.getItem<string>('conversations:ticket-2:r1')).toMatch(/^ticket-2 output 0\n/);
    expect(await store.getItem('r1')).toBeNull();
  });

  it('keeps the unscoped archive without a conversationId', async () => {
    const store = memoryStore();
    const manager = createContextManager({ model: 'm', contextWindow: 100_000, policy, keepRecentTurns: 1, plugins: [archivingTier('archive', true), tiktokenCounter('o200k_base'), store] });
    await manager.prepare(run(12, 'plain'));
    expect(await store.getItem<string>('r1')).toMatch(/^plain output 0\n/);
  });

  it('rejects an empty conversationId or a bad storeTimeoutMs at creation', () => {
    expect(() => createContextManager({ model: 'm', contextWindow: 1_000, conversationId: '' })).toThrow(
      '[ctxkit:engine] createContextManager option conversationId must be a non-empty string, got ""',
    );
    expect(() => createContextManager({ model: 'm', contextWindow: 1_000, storeTimeoutMs: 0 })).toThrow(
      '[ctxkit:engine] createContextManager option storeTimeoutMs must be a number of milliseconds above 0, got 0',
    );
  });
});

describe('a store that does not answer', () => {
  it('bounds each store call by storeTimeoutMs: the archiving tier fails with the reason and the next tier still compacts', async () => {
    const hanging = hangingStore();
    const manager = createContextManager({
      model: 'm',
      contextWindow: 100_000,
      policy,
      keepRecentTurns: 1,
      storeTimeoutMs: 50,
      conversationId: 'ticket-3',
      plugins: [archivingTier('archive', true), archivingTier('no-archive', false), tiktokenCounter('o200k_base'), hanging],
    });
    const { messages, report } = await manager.prepare(run(12, 'outage'));
    expect(report.tiers.map(({ id, status }) => [id, status])).toEqual([
      ['archive', 'failed'],
      ['no-archive', 'applied'],
    ]);
    expect(report.tiers[0]!.reason).toBe('could not archive: [ctxkit:core] setItem "conversations:ticket-3:r1" timed out after 50 ms (store "hanging")');
    expect(report.after).toBeLessThanOrEqual(report.threshold);
    expect(messages.filter((message) => message.role === 'tool' && message.content === '[gone]').length).toBeGreaterThan(0);
  });
});
