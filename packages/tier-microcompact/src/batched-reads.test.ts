import { type Message, memoryStore, type StoreEntry, type StorePlugin } from '@ctxkit/core';
import { appliedOutcome } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { sourceFile, tierContext } from './__fixtures__/tier-context.ts';
import { microcompactTier } from './microcompact-tier.ts';
import { createRestoreHandler } from './restore-handler.ts';

/** The calls a store got, by method. */
type Calls = Record<'getItem' | 'getItems' | 'setItem' | 'setItems' | 'setItemIfAbsent' | 'removeItem' | 'removeItems', number>;

/** A view of `store` that counts every call, as a networked store would count round trips. */
function counting(store: StorePlugin): { store: StorePlugin; calls: Calls } {
  const calls: Calls = { getItem: 0, getItems: 0, setItem: 0, setItems: 0, setItemIfAbsent: 0, removeItem: 0, removeItems: 0 };
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
      ...(store.setItems
        ? {
            setItems: (entries: readonly StoreEntry[]) => {
              calls.setItems += 1;
              return store.setItems!(entries);
            },
          }
        : {}),
      ...(store.removeItems
        ? {
            removeItems: (keys: readonly string[]) => {
              calls.removeItems += 1;
              return store.removeItems!(keys);
            },
          }
        : {}),
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

/** A memory store without the batched writes, as stores written before them are. */
function unbatchedWrites(store: StorePlugin = memoryStore()): StorePlugin {
  const { setItems: _set, removeItems: _remove, ...rest } = store;
  return rest;
}

const writes = (calls: Calls) => calls.setItem + calls.setItems + calls.removeItem + calls.removeItems;

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

describe('microcompactTier: the commit writes the store in one call', () => {
  it('archives 40 old results with one setItems call where a store without it takes 81 writes, and leaves the same archive', async () => {
    const run = longRun(43);
    const batched = counting(memoryStore());
    const plain = counting(unbatchedWrites());
    const output = appliedOutcome(await compact(run, batched.store)).messages;
    expect(appliedOutcome(await compact(run, plain.store)).messages).toEqual(output);
    // 40 records, 40 fingerprints and the counter; the claims stay one per handle (decision 0093).
    expect([batched.calls.setItems, batched.calls.setItem, writes(batched.calls), writes(plain.calls)]).toEqual([1, 0, 1, 81]);
    expect([batched.calls.setItemIfAbsent, plain.calls.setItemIfAbsent]).toEqual([40, 40]);
    const restoreBatched = createRestoreHandler(batched.store);
    const restorePlain = createRestoreHandler(plain.store);
    for (const handle of ['r1', 'r20', 'r40']) expect(await restoreBatched({ handle })).toBe(await restorePlain({ handle }));
    expect(await restoreBatched({ handle: 'r40' })).toBe(run[80]!.content);
  });

  it('releases the handles it planned but did not archive with one removeItems call', async () => {
    const run = longRun(23); // 20 old results, each about 1,000 tokens: three free what is needed
    const tier = microcompactTier({ minSavingsTokens: 0 });
    const contextOf = (store: StorePlugin) => tierContext({ messages: run, protectedStart: run.length - 1, store, currentTokens: 30_000, targetTokens: 28_500 });
    const batched = counting(memoryStore());
    const plain = counting(unbatchedWrites());
    const output = appliedOutcome(await tier.apply(run, contextOf(batched.store))).messages;
    expect(appliedOutcome(await tier.apply(run, contextOf(plain.store))).messages).toEqual(output);
    expect(output.filter((message) => message.meta?.ctxkit?.kind === 'stub')).toHaveLength(3);
    expect([batched.calls.setItems, batched.calls.removeItems, batched.calls.removeItem, plain.calls.removeItem]).toEqual([1, 1, 0, 17]);
    expect(await batched.store.getItems!(['r3', 'r4', 'r20'])).toEqual([expect.objectContaining({ handle: 'r3' }), null, null]);
  });

  it('archives afresh a result whose fingerprint was written without its record (a batch applied in part)', async () => {
    const run = longRun(8);
    const inner = memoryStore();
    // The batch fails after writing its last half (fingerprints and counter), as parallel writes may leave it.
    const halfWritten: StorePlugin = {
      ...inner,
      setItems: async (entries) => {
        await inner.setItems!(entries.slice(Math.floor(entries.length / 2)));
        throw new Error('connection reset');
      },
    };
    expect(await compact(run, halfWritten)).toMatchObject({ status: 'skipped', reason: expect.stringContaining('failed: connection reset') });
    const output = appliedOutcome(await compact(run, inner)).messages;
    const restore = createRestoreHandler(inner);
    const stubs = output.flatMap((message, index) => (message.meta?.ctxkit?.kind === 'stub' ? [[index, message.meta.ctxkit.handle!] as const] : []));
    expect(stubs).toHaveLength(5);
    for (const [index, handle] of stubs) expect(await restore({ handle })).toBe(run[index]!.content);
  });
});
