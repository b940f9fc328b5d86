import { type Message, memoryStore, type StorePlugin, type ToolMessage } from '@ctxkit/core';
import { appliedOutcome } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { codingRun, sourceFile, tierContext } from './__fixtures__/tier-context.ts';
import { microcompactTier } from './microcompact-tier.ts';
import { createRestoreHandler } from './restore-handler.ts';

const handlesOf = (messages: readonly Message[]) => messages.flatMap((message) => (message.meta?.ctxkit?.handle ? [message.meta.ctxkit.handle] : []));

/** The coding run of another conversation: the same calls, other file contents. */
function otherRun(): Message[] {
  return codingRun().map((message) => (message.role === 'tool' ? ({ ...message, content: `${sourceFile('other', 380)}\n${message.toolCallId}` } as ToolMessage) : message));
}

/** The store's keys, read through a view that records every write and remove. */
function tracked(store: StorePlugin): { store: StorePlugin; keys: Set<string> } {
  const keys = new Set<string>();
  return {
    keys,
    store: {
      ...store,
      setItem: async (key, value) => {
        keys.add(key);
        await store.setItem(key, value);
      },
      removeItem: async (key) => {
        keys.delete(key);
        await store.removeItem(key);
      },
      setItems: async (entries) => {
        for (const { key } of entries) keys.add(key);
        await store.setItems!(entries);
      },
      removeItems: async (removed) => {
        for (const key of removed) keys.delete(key);
        await store.removeItems!(removed);
      },
      setItemIfAbsent: async (key, value) => {
        const written = await store.setItemIfAbsent!(key, value);
        if (written) keys.add(key);
        return written;
      },
    },
  };
}

describe('microcompactTier: managers sharing one store', () => {
  it('two compactions at the same instant on one store claim different handles, and each restores its own original', async () => {
    const store = memoryStore();
    const first = codingRun();
    const second = otherRun();
    const [a, b] = await Promise.all([
      microcompactTier().apply(first, tierContext({ messages: first, protectedStart: 12, store })),
      microcompactTier().apply(second, tierContext({ messages: second, protectedStart: 12, store })),
    ]);
    const handlesA = handlesOf(appliedOutcome(a).messages);
    const handlesB = handlesOf(appliedOutcome(b).messages);
    expect(handlesA.length).toBeGreaterThan(0);
    expect(handlesB.length).toBeGreaterThan(0);
    expect(handlesA.filter((handle) => handlesB.includes(handle))).toEqual([]);

    const restore = createRestoreHandler(store);
    for (const [run, output, handles] of [
      [first, appliedOutcome(a).messages, handlesA],
      [second, appliedOutcome(b).messages, handlesB],
    ] as const) {
      for (const handle of handles) {
        const index = output.findIndex((message) => message.meta?.ctxkit?.handle === handle);
        expect(await restore({ handle })).toBe(run[index]!.content);
      }
    }
  });

  it('leaves no reservation behind: handles planned but not archived are released', async () => {
    const { store, keys } = tracked(memoryStore());
    const messages = codingRun();
    // Three results are old enough, but the oldest one alone frees what is needed: the other two were planned, then released.
    const context = tierContext({ messages, protectedStart: 12, store, currentTokens: 12_000, targetTokens: 11_000 });
    const output = appliedOutcome(await microcompactTier({ minSavingsTokens: 100 }).apply(messages, context)).messages;
    expect(handlesOf(output)).toEqual(['r1']);
    expect([...keys].filter((key) => /^r\d+$/.test(key))).toEqual(['r1']);
    expect(await store.getItem('r2')).toBeNull();
  });

  it('releases every reservation when it skips', async () => {
    const { store, keys } = tracked(memoryStore());
    const messages = codingRun();
    const outcome = await microcompactTier({ minSavingsTokens: 1_000_000 }).apply(messages, tierContext({ messages, protectedStart: 12, store }));
    expect(outcome.status).toBe('skipped');
    expect([...keys]).toEqual([]);
  });
});

describe('microcompactTier: a store whose setItemIfAbsent breaks the contract', () => {
  it('skips with the reason instead of probing for ever when every claim is refused on empty keys', async () => {
    const store: StorePlugin = { ...memoryStore(), setItemIfAbsent: async () => false };
    const messages = codingRun();
    const outcome = await microcompactTier().apply(messages, tierContext({ messages, protectedStart: 12, store }));
    expect(outcome).toMatchObject({ status: 'skipped' });
    expect(outcome.status === 'skipped' && outcome.reason).toContain('store "memory" refused setItemIfAbsent("r1") three times while the key read empty');
  });

  // A host's own store over Redis answering SETNX's 1 (or SET NX's "OK") wrote the key, but read as a refusal
  // the handle looked taken and planning claimed r2, r3, … without end.
  for (const [name, answer] of [
    ['1, as SETNX answers', 1],
    ['"OK", as SET NX answers', 'OK'],
    ['undefined', undefined],
  ] as const) {
    it(`skips with the reason when setItemIfAbsent writes and answers ${name}`, async () => {
      const inner = memoryStore();
      let claims = 0;
      const store: StorePlugin = {
        ...inner,
        setItemIfAbsent: async (key, value) => {
          claims += 1;
          if (claims > 50) throw new Error('probed past 50 handles');
          return ((await inner.setItemIfAbsent!(key, value)) ? answer : 0) as never;
        },
      };
      const messages = codingRun();
      const outcome = await microcompactTier().apply(messages, tierContext({ messages, protectedStart: 12, store }));
      expect(outcome).toMatchObject({ status: 'skipped' });
      expect(outcome.status === 'skipped' && outcome.reason).toContain('store "memory" answered setItemIfAbsent("r1") with');
      expect(claims).toBe(1);
    });
  }
});
