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
    setItems: async (entries) => {
      for (const { key } of entries) checked(key);
      return inner.setItems!(entries);
    },
    removeItems: async (keys) => {
      for (const key of keys) checked(key);
      return inner.removeItems!(keys);
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

describe('checkStoreConformance: setItems and removeItems', () => {
  /** The memory store with a batched write of its own making. */
  const withSetItems = (setItems: (inner: StorePlugin, entries: readonly { key: string; value: unknown }[]) => Promise<void>): StorePlugin => {
    const inner = memoryStore();
    return { ...inner, setItems: (entries) => setItems(inner, entries) };
  };

  it('passes a store without them, and the memory store with them', async () => {
    const { setItems: _set, removeItems: _remove, ...plain } = memoryStore();
    await expect(checkStoreConformance(() => plain, { runs: 20 })).resolves.toBeUndefined();
    await expect(checkStoreConformance(() => memoryStore(), { runs: 20 })).resolves.toBeUndefined();
  });

  it('fails a batched write where the first entry for a key wins, strings are parsed, or values are stored by reference', async () => {
    const firstWins = withSetItems(async (inner, entries) => {
      for (const entry of [...entries].reverse()) await inner.setItem(entry.key, entry.value);
    });
    await expect(checkStoreConformance(() => firstWins, { runs: 5 })).rejects.toThrow(
      'setItems must leave the later of two entries for one key, as setItem in order would: "batched:twice" reads {"first":true}',
    );
    const parsing = withSetItems(async (inner, entries) => {
      for (const { key, value } of entries) await inner.setItem(key, typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value);
    });
    await expect(checkStoreConformance(() => parsing, { runs: 20 })).rejects.toThrow(/setItems wrote "[0-9]+" under|setItems must write as setItem does: "batch:number-text"/);
    // Copies in and out, except setItems, which keeps the caller's objects.
    const kept = new Map<string, unknown>();
    const byReference: StorePlugin = {
      specificationVersion: 'v1',
      kind: 'store',
      id: 'by-reference',
      getItem: async (key) => (kept.has(key) ? structuredClone(kept.get(key)) : null) as never,
      setItem: async (key, value) => {
        kept.set(key, structuredClone(value));
      },
      removeItem: async (key) => {
        kept.delete(key);
      },
      setItems: async (entries) => {
        for (const { key, value } of entries) kept.set(key, value);
      },
    };
    await expect(checkStoreConformance(() => byReference, { runs: 5 })).rejects.toThrow('a value changed by the caller after setItems must not change what is stored');
  });

  it('fails a batched write that writes a key setItem refuses, and a batched remove that leaves keys behind', async () => {
    const refusing = dotRefusing(true);
    const laxOnDots: StorePlugin = {
      ...refusing,
      setItems: async (entries) => {
        for (const { key, value } of entries) if (!key.includes('..')) await refusing.setItem(key, value);
      },
    };
    await expect(checkStoreConformance(() => laxOnDots, { runs: 5 })).rejects.toThrow('setItems must refuse a key setItem refuses, and write one it writes ("odd:..:key": setItem refused it)');
    const inner = memoryStore();
    const removesFirst: StorePlugin = { ...inner, removeItems: (keys) => inner.removeItem(keys[0]!) };
    await expect(checkStoreConformance(() => removesFirst, { runs: 5 })).rejects.toThrow(
      'removeItems must remove exactly the keys it is given: "removed:a", "removed:b", "removed:kept" read [null,"removed:b","removed:kept"]',
    );
  });
});
