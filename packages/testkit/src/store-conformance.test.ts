import { memoryStore, type StorePlugin } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { checkStoreConformance } from './store-conformance.ts';

/** A memory store that refuses `.` and `..` segments in setItem, getItem and removeItem, as unstorage does. */
function dotRefusing(claimsRefuse: boolean): StorePlugin {
  const inner = memoryStore();
  const checked = (key: string) => {
    if (key.split(':').some((segment) => segment === '.' || segment === '..')) throw new Error(`Invalid key: ${JSON.stringify(key)}`);
  };
  return {
    ...inner,
    getItem: async (key) => {
      checked(key);
      return inner.getItem(key);
    },
    setItem: async (key, value) => {
      checked(key);
      return inner.setItem(key, value);
    },
    removeItem: async (key) => {
      checked(key);
      return inner.removeItem(key);
    },
    getItems: async (keys) => {
      for (const key of keys) checked(key);
      return inner.getItems!(keys);
    },
    setItemIfAbsent: async (key, value) => {
      if (claimsRefuse) checked(key);
      return inner.setItemIfAbsent!(key, value);
    },
  };
}

describe('checkStoreConformance: setItemIfAbsent', () => {
  it('passes the memory store and a store that refuses the same keys in both writes', async () => {
    await expect(checkStoreConformance(() => memoryStore(), { runs: 20 })).resolves.toBeUndefined();
    await expect(checkStoreConformance(() => dotRefusing(true), { runs: 20 })).resolves.toBeUndefined();
  });

  it('fails a store whose setItemIfAbsent claims a key its setItem refuses', async () => {
    await expect(checkStoreConformance(() => dotRefusing(false), { runs: 20 })).rejects.toThrow(
      'breaks the store contract: setItemIfAbsent("odd:.:key") must refuse a key setItem refuses; it answered true',
    );
  });

  it('fails a store whose setItemIfAbsent answers 1 for a write (Redis SETNX)', async () => {
    const inner = memoryStore();
    const store: StorePlugin = { ...inner, setItemIfAbsent: async (key, value) => ((await inner.setItemIfAbsent!(key, value)) ? 1 : 0) as never };
    await expect(checkStoreConformance(() => store, { runs: 20 })).rejects.toThrow('setItemIfAbsent on an absent key must write and answer true');
  });
});

describe('checkStoreConformance: getItems', () => {
  /** The memory store with its getItems replaced by `getItems`, which gets the memory store's own answer to bend. */
  const bent = (getItems: (answer: unknown[], keys: readonly string[]) => unknown[]): StorePlugin => {
    const inner = memoryStore();
    return { ...inner, getItems: async (keys) => getItems(await inner.getItems!(keys), keys) };
  };

  it('passes a store without getItems, and the memory store with it', async () => {
    const { getItems: _left, ...plain } = memoryStore();
    await expect(checkStoreConformance(() => plain, { runs: 20 })).resolves.toBeUndefined();
    await expect(checkStoreConformance(() => memoryStore(), { runs: 20 })).resolves.toBeUndefined();
  });

  it('fails a batched read whose answers are out of order, undefined for absent, or parsed strings', async () => {
    await expect(checkStoreConformance(() => bent((answer) => [...answer].reverse()), { runs: 20 })).rejects.toThrow(/getItems read ".*" as|getItems must answer/);
    await expect(checkStoreConformance(() => bent((answer) => answer.map((value) => value ?? undefined)), { runs: 5 })).rejects.toThrow(
      'getItems must answer "batch:absent" (position 0) as getItem does: null, it answered undefined',
    );
    const parsing = bent((answer) => answer.map((value) => (value === '123' ? 123 : value)));
    await expect(checkStoreConformance(() => parsing, { runs: 5 })).rejects.toThrow('getItems must answer "batch:number-text" (position 3) as getItem does: "123", it answered 123');
  });

  it('fails a batched read that drops duplicates, shares one object between them, or reads a key getItem refuses', async () => {
    const deduplicated = bent((answer, keys) => answer.filter((_, index) => keys.indexOf(keys[index]!) === index));
    await expect(checkStoreConformance(() => deduplicated, { runs: 5 })).rejects.toThrow('getItems of 13 keys must answer 13 values in an array');
    const sharing = bent((answer, keys) => answer.map((_, index) => answer[keys.indexOf(keys[index]!)]));
    await expect(checkStoreConformance(() => sharing, { runs: 5 })).rejects.toThrow('getItems must answer each key with its own copy');
    const inner = memoryStore();
    const refusing = dotRefusing(true);
    const lax: StorePlugin = { ...refusing, getItems: (keys) => Promise.all(keys.map((key) => (key.includes('..') ? inner.getItem(key) : refusing.getItem(key)))) };
    await expect(checkStoreConformance(() => lax, { runs: 5 })).rejects.toThrow('getItems must refuse a key getItem refuses, and read one it reads ("odd:..:key": getItem refused it)');
  });
});
