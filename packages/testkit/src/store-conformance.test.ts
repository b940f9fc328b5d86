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
    getItem: async (key) => (checked(key), inner.getItem(key)),
    setItem: async (key, value) => (checked(key), inner.setItem(key, value)),
    removeItem: async (key) => (checked(key), inner.removeItem(key)),
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
