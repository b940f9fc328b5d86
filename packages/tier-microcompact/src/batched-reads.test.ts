import { type Message, memoryStore, type StorePlugin } from '@ctxkit/core';
import { appliedOutcome } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { sourceFile, tierContext } from './__fixtures__/tier-context.ts';
import { microcompactTier } from './microcompact-tier.ts';
import { createRestoreHandler } from './restore-handler.ts';

/** The calls a store got, by method. */
type Calls = Record<'getItem' | 'getItems' | 'setItem' | 'setItemIfAbsent' | 'removeItem', number>;

/** A view of `store` that counts every call, as a networked store would count round trips. */
function counting(store: StorePlugin): { store: StorePlugin; calls: Calls } {
  const calls: Calls = { getItem: 0, getItems: 0, setItem: 0, setItemIfAbsent: 0, removeItem: 0 };
  return {
    calls,
    store: {
      ...store,
      getItem: (key) => {
        calls.getItem += 1;
        return store.getItem(key);
      },
      setItem: (key, value) => {
        calls.setItem += 1;
        return store.setItem(key, value);
      },
      removeItem: (key) => {
        calls.removeItem += 1;
        return store.removeItem(key);
      },
      setItemIfAbsent: (key, value) => {
        calls.setItemIfAbsent += 1;
        return store.setItemIfAbsent!(key, value);
      },
      ...(store.getItems
        ? {
            getItems: (keys: readonly string[]) => {
              calls.getItems += 1;
              return store.getItems!(keys);
            },
          }
        : {}),
    },
  };
}

/** A memory store without the batched read, as stores written before it are. */
function unbatched(): StorePlugin {
  const { getItems: _left, ...store } = memoryStore();
  return store;
}

/** An agent run of `rounds` read_file rounds (call ids `call_<name><round>`), each result about 1,000 tokens, and a closing message. */
function longRun(rounds: number, name = ''): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let round = 1; round <= rounds; round++) {
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `call_${name}${round}`, name: 'read_file', arguments: `{"path":"src/${name}file${round}.ts"}` }] });
    messages.push({ role: 'tool', toolCallId: `call_${name}${round}`, toolName: 'read_file', content: sourceFile(`${name}file${round}_`, 100) });
  }
  messages.push({ role: 'assistant', content: 'Read them all.' });
  return messages;
}

const reads = (calls: Calls) => calls.getItem + calls.getItems;
const compact = (messages: readonly Message[], store: StorePlugin) =>
  microcompactTier({ archive: 'all', minSavingsTokens: 0 }).apply(messages, tierContext({ messages, protectedStart: messages.length - 1, store }));

describe('microcompactTier: planning reads the store in a few calls', () => {
  it('reads 40 old results with one getItems call, and the second time (every result archived before) with two, where a store without it takes 41 and 81 reads', async () => {
    const run = longRun(43); // 40 old results, the last 3 kept
    const batched = counting(memoryStore());
    const plain = counting(unbatched());
    const first = appliedOutcome(await compact(run, batched.store)).messages;
    expect(appliedOutcome(await compact(run, plain.store)).messages).toEqual(first);
    expect([reads(batched.calls), batched.calls.getItem, reads(plain.calls)]).toEqual([1, 0, 41]);
    // Each new handle is still claimed on its own (decision 0093): 40 claims either way.
    expect([batched.calls.setItemIfAbsent, plain.calls.setItemIfAbsent]).toEqual([40, 40]);

    // The host prepares its full history again: every result is found by fingerprint, then its record.
    for (const counted of [batched, plain]) for (const method of Object.keys(counted.calls) as (keyof Calls)[]) counted.calls[method] = 0;
    const again = appliedOutcome(await compact(run, batched.store)).messages;
    expect(appliedOutcome(await compact(run, plain.store)).messages).toEqual(again);
    expect(again).toEqual(first);
    expect([reads(batched.calls), batched.calls.getItem, reads(plain.calls)]).toEqual([2, 0, 81]);
    expect(batched.calls.setItemIfAbsent).toBe(0);
  });

  it('finds restored originals in the same first batch, and plans what a store without getItems plans', async () => {
    const plans: Message[][] = [];
    for (const { store, calls } of [counting(memoryStore()), counting(unbatched())]) {
      const first = appliedOutcome(await compact(longRun(8), store)).messages;
      const restore = createRestoreHandler(store);
      const grown: Message[] = [...first.slice(0, -1)];
      for (const handle of ['r2', 'r4']) {
        grown.push({ role: 'assistant', content: '', toolCalls: [{ id: `call_again_${handle}`, name: 'restore_tool_result', arguments: JSON.stringify({ handle }) }] });
        grown.push({ role: 'tool', toolCallId: `call_again_${handle}`, toolName: 'restore_tool_result', content: await restore({ handle }) });
      }
      grown.push(...longRun(3, 'later').slice(1));
      for (const method of Object.keys(calls) as (keyof Calls)[]) calls[method] = 0;
      plans.push(appliedOutcome(await compact(grown, store)).messages);
      if (store.getItems) expect([calls.getItems, calls.getItem]).toEqual([1, 0]);
      else expect(calls.getItem).toBeGreaterThan(1);
    }
    const [withBatches, withoutBatches] = plans;
    expect(withBatches).toEqual(withoutBatches);
    const restoredStubs = withBatches!.filter((message) => message.role === 'tool' && message.toolName === 'restore_tool_result');
    expect(restoredStubs.map((message) => message.meta?.ctxkit?.handle)).toEqual(['r2', 'r4']);
  });

  it('skips with the reason when getItems answers other than one value per key, instead of matching values to the wrong keys', async () => {
    const inner = memoryStore();
    const store: StorePlugin = { ...inner, getItems: async (keys) => (await inner.getItems!(keys)).slice(1) };
    const outcome = await compact(longRun(5), store);
    expect(outcome).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(
        /^could not read the archive store, transcript unchanged: \[ctxkit:tier-microcompact\] store "memory" answered getItems of 3 keys with 2 values: it must answer one value per key, in order$/,
      ),
    });
  });
});
