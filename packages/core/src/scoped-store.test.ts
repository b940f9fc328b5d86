import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store.ts';
import type { StorePlugin } from './plugin.ts';
import { boundedStore, conversationPrefix, conversationStore, scopedStore } from './scoped-store.ts';

describe('scopedStore and conversationStore', () => {
  it('keeps each conversation under its own prefix, so the same handle never meets another conversation', async () => {
    const store = memoryStore();
    await conversationStore(store, 'ticket-1').setItem('r1', 'first conversation');
    await conversationStore(store, 'ticket-2').setItem('r1', 'second conversation');
    expect(await conversationStore(store, 'ticket-1').getItem('r1')).toBe('first conversation');
    expect(await conversationStore(store, 'ticket-2').getItem('r1')).toBe('second conversation');
    expect(await store.getItem('conversations:ticket-1:r1')).toBe('first conversation');
    expect(await store.getItem('r1')).toBeNull();
    await conversationStore(store, 'ticket-1').removeItem('r1');
    expect(await store.getItem('conversations:ticket-2:r1')).toBe('second conversation');
  });

  it('encodes separators in ids, so "a:b" and "a/b" and "a" with a key "b:r1" stay apart', () => {
    expect(conversationPrefix('a:b')).toBe('conversations:a%3Ab:');
    expect(conversationPrefix('a/b')).toBe('conversations:a%2Fb:');
    expect(conversationPrefix('..')).toBe('conversations:%2E%2E:');
    expect(new Set([conversationPrefix('a:b'), conversationPrefix('a/b'), conversationPrefix('a')]).size).toBe(3);
  });

  it('rejects an empty prefix or conversation id', () => {
    expect(() => scopedStore(memoryStore(), '')).toThrow('[ctxkit:core] scopedStore needs a non-empty key prefix, got ""');
    expect(() => conversationStore(memoryStore(), '')).toThrow('[ctxkit:core] conversationId must be a non-empty string, got ""');
    expect(() => conversationStore(memoryStore(), 7 as unknown as string)).toThrow('[ctxkit:core] conversationId must be a non-empty string, got 7');
  });
});

describe('boundedStore', () => {
  const hanging: StorePlugin<'hanging'> = {
    specificationVersion: 'v1',
    kind: 'store',
    id: 'hanging',
    getItem: () => new Promise(() => {}),
    setItem: () => new Promise(() => {}),
    removeItem: () => new Promise(() => {}),
  };

  it('fails a call that does not settle in time with STORE_ERROR naming the key and the store', async () => {
    await expect(boundedStore(hanging, 20).getItem('r7')).rejects.toThrow(
      expect.objectContaining({ code: 'STORE_ERROR', message: '[ctxkit:core] getItem "r7" timed out after 20 ms (store "hanging")' }),
    );
    await expect(boundedStore(hanging, 20).setItem('r8', 'x')).rejects.toThrow('setItem "r8" timed out after 20 ms');
  });

  it('passes values and errors of a store that answers through unchanged', async () => {
    const store = memoryStore();
    await boundedStore(store, 1_000).setItem('k', { a: 1 });
    expect(await boundedStore(store, 1_000).getItem('k')).toEqual({ a: 1 });
    const broken = { ...store, getItem: () => Promise.reject(new Error('connection reset')) } as StorePlugin;
    await expect(boundedStore(broken, 1_000).getItem('k')).rejects.toThrow('connection reset');
  });

  it('takes the answer of a store that answers without a promise, as a plain JavaScript store may', async () => {
    const values = new Map<string, unknown>();
    const plain = {
      specificationVersion: 'v1',
      kind: 'store',
      id: 'plain',
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: unknown) => void values.set(key, value),
      removeItem: (key: string) => void values.delete(key),
      setItemIfAbsent: (key: string, value: unknown) => !values.has(key) && Boolean(values.set(key, value)),
      setItems: (entries: readonly { key: string; value: unknown }[]) => {
        for (const { key, value } of entries) values.set(key, value);
        return entries.length;
      },
    } as unknown as StorePlugin;
    const bounded = boundedStore(plain, 1_000);
    await bounded.setItem('k', 'v');
    expect(await bounded.getItem('k')).toBe('v');
    expect(await bounded.setItemIfAbsent!('k', 'again')).toBe(false);
    await expect(bounded.setItems!([{ key: 'a', value: 1 }])).resolves.toBe(1);
    expect(await bounded.getItem('a')).toBe(1);
  });

  it('rejects a timeout that is not above 0', () => {
    expect(() => boundedStore(memoryStore(), 0)).toThrow('[ctxkit:core] boundedStore needs a timeout in milliseconds above 0, got 0');
  });
});

describe('setItemIfAbsent through store views', () => {
  it('a scoped view claims under its prefix, and a store without the method gives a view without it', async () => {
    const store = memoryStore();
    const run = scopedStore(store, 'run-1');
    expect(await run.setItemIfAbsent!('r1', 'claimed')).toBe(true);
    expect(await run.setItemIfAbsent!('r1', 'again')).toBe(false);
    expect(await store.getItem('run-1:r1')).toBe('claimed');
    expect(await scopedStore(store, 'run-2').setItemIfAbsent!('r1', 'other run')).toBe(true);
    const { setItemIfAbsent: _left, ...plain } = memoryStore();
    expect(scopedStore(plain, 'run-1').setItemIfAbsent).toBeUndefined();
    expect(boundedStore(plain, 1_000).setItemIfAbsent).toBeUndefined();
  });

  it('a bounded view bounds it like every other call', async () => {
    const stuck: StorePlugin = { ...memoryStore(), setItemIfAbsent: () => new Promise<boolean>(() => {}) };
    const bounded = boundedStore(stuck, 20);
    await expect(bounded.setItemIfAbsent!('r1', 'x')).rejects.toThrow('setItemIfAbsent "r1" timed out after 20 ms (store "memory")');
    expect(await boundedStore(memoryStore(), 1_000).setItemIfAbsent!('r1', 'x')).toBe(true);
  });
});

describe('getItems through store views', () => {
  it('a scoped or conversation view reads its own keys in one call, in order, and a store without the method gives a view without it', async () => {
    const store = memoryStore();
    await store.setItem('run-1:r1', 'first');
    await store.setItem('run-1:r2', { second: true });
    await store.setItem('r1', 'unscoped');
    const calls: (readonly string[])[] = [];
    const counted: StorePlugin = {
      ...store,
      getItems: (keys) => {
        calls.push(keys);
        return store.getItems!(keys);
      },
    };
    expect(await scopedStore(counted, 'run-1').getItems!(['r2', 'absent', 'r1', 'r2'])).toEqual([{ second: true }, null, 'first', { second: true }]);
    expect(calls).toEqual([['run-1:r2', 'run-1:absent', 'run-1:r1', 'run-1:r2']]);
    await conversationStore(store, 'a:b').setItem('r1', 'in a:b');
    expect(await conversationStore(store, 'a:b').getItems!(['r1'])).toEqual(['in a:b']);
    const { getItems: _left, ...plain } = memoryStore();
    expect(scopedStore(plain, 'run-1').getItems).toBeUndefined();
    expect(conversationStore(plain, 'a').getItems).toBeUndefined();
    expect(boundedStore(plain, 1_000).getItems).toBeUndefined();
  });

  it('a bounded view bounds the whole batch as one call, naming its keys', async () => {
    const stuck: StorePlugin = { ...memoryStore(), getItems: () => new Promise<unknown[]>(() => {}) };
    await expect(boundedStore(stuck, 20).getItems!(['r1', 'r2', 'r3', 'r4', 'r5'])).rejects.toThrow('getItems "r1", "r2", "r3" and 2 more timed out after 20 ms (store "memory")');
    const store = memoryStore();
    await store.setItem('r1', 'x');
    expect(await boundedStore(store, 1_000).getItems!(['r1', 'r9'])).toEqual(['x', null]);
  });

  it('memoryStore answers copies, one per key asked, so changing one changes neither the store nor its twin', async () => {
    const store = memoryStore();
    await store.setItem('r1', { list: [1] });
    const [first, twin] = (await store.getItems!(['r1', 'r1'])) as { list: number[] }[];
    first!.list.push(2);
    expect(twin).toEqual({ list: [1] });
    expect(await store.getItem('r1')).toEqual({ list: [1] });
  });
});

describe('setItems and removeItems through store views', () => {
  it('a scoped or conversation view writes and removes its own keys in one call each, and a store without the methods gives a view without them', async () => {
    const store = memoryStore();
    const calls: string[][] = [];
    const counted: StorePlugin = {
      ...store,
      setItems: (entries) => {
        calls.push(entries.map(({ key }) => key));
        return store.setItems!(entries);
      },
      removeItems: (keys) => {
        calls.push(keys.map((key) => `-${key}`));
        return store.removeItems!(keys);
      },
    };
    const run = scopedStore(counted, 'run-1');
    await run.setItems!([
      { key: 'r1', value: 'first' },
      { key: 'r2', value: { second: true } },
      { key: 'r1', value: 'later' },
    ]);
    expect([await store.getItem('run-1:r1'), await store.getItem('run-1:r2'), await store.getItem('r1')]).toEqual(['later', { second: true }, null]);
    await run.removeItems!(['r2', 'absent']);
    expect(await store.getItem('run-1:r2')).toBeNull();
    expect(calls).toEqual([
      ['run-1:r1', 'run-1:r2', 'run-1:r1'],
      ['-run-1:r2', '-run-1:absent'],
    ]);
    await conversationStore(store, 'a:b').setItems!([{ key: 'r1', value: 'in a:b' }]);
    expect(await conversationStore(store, 'a:b').getItem('r1')).toBe('in a:b');
    const { setItems: _set, removeItems: _remove, ...plain } = memoryStore();
    for (const view of [scopedStore(plain, 'run-1'), conversationStore(plain, 'a'), boundedStore(plain, 1_000)]) expect([view.setItems, view.removeItems]).toEqual([undefined, undefined]);
  });

  it('a bounded view bounds each batch as one call, naming its keys', async () => {
    const stuck: StorePlugin = { ...memoryStore(), setItems: () => new Promise<void>(() => {}), removeItems: () => new Promise<void>(() => {}) };
    const entries = ['r1', 'r2', 'r3', 'r4'].map((key) => ({ key, value: key }));
    await expect(boundedStore(stuck, 20).setItems!(entries)).rejects.toThrow('setItems "r1", "r2", "r3" and 1 more timed out after 20 ms (store "memory")');
    await expect(boundedStore(stuck, 20).removeItems!(['r1', 'r2'])).rejects.toThrow('removeItems "r1", "r2" timed out after 20 ms (store "memory")');
    const store = memoryStore();
    await boundedStore(store, 1_000).setItems!(entries);
    expect(await store.getItems!(['r1', 'r4'])).toEqual(['r1', 'r4']);
  });

  it('memoryStore stores copies, and a batch holding a value JSON cannot hold writes none of it', async () => {
    const store = memoryStore();
    const value = { list: [1] };
    await store.setItems!([{ key: 'r1', value }]);
    value.list.push(2);
    expect(await store.getItem('r1')).toEqual({ list: [1] });
    await expect(
      store.setItems!([
        { key: 'r2', value: 'fine' },
        { key: 'r3', value: 1n },
      ]),
    ).rejects.toThrow(TypeError);
    expect(await store.getItem('r2')).toBeNull();
  });
});

describe('setItems given something other than entries', () => {
  it('rejects with an error naming the call and the entry, through every view, writing nothing', async () => {
    const store = memoryStore();
    for (const view of [store, scopedStore(store, 'run'), boundedStore(store, 1_000), boundedStore(scopedStore(store, 'run'), 1_000)]) {
      await expect(view.setItems!(null as never)).rejects.toThrow('[ctxkit:core] setItems takes an array of { key, value } entries, got null');
      await expect(view.setItems!([{ key: 'a', value: 1 }, null] as never)).rejects.toThrow('[ctxkit:core] setItems entries[1] must be { key: string, value }, got null');
      await expect(view.setItems!([{ key: 7, value: 1 }] as never)).rejects.toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: '[ctxkit:core] setItems entries[0] must be { key: string, value }, got a key of type number' }),
      );
    }
    expect(await store.getItems!(['a', 'run:a'])).toEqual([null, null]);
  });
});

describe('getItems and removeItems given something other than keys', () => {
  it('reject with an error naming the call and the key, through every view, removing nothing', async () => {
    const store = memoryStore();
    await store.setItem('run:a', 1);
    for (const view of [store, scopedStore(store, 'run'), boundedStore(store, 1_000), boundedStore(scopedStore(store, 'run'), 1_000)]) {
      await expect(view.getItems!('a' as never)).rejects.toThrow('[ctxkit:core] getItems takes an array of keys, got string');
      await expect(view.removeItems!(null as never)).rejects.toThrow('[ctxkit:core] removeItems takes an array of keys, got null');
      await expect(view.removeItems!(['a', 7] as never)).rejects.toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: '[ctxkit:core] removeItems keys[1] must be a string, got number' }),
      );
    }
    expect(await store.getItem('run:a')).toBe(1);
  });
});
