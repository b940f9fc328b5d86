import type { StorePlugin } from './plugin.ts';
import { batchKeys, entryKeys } from './scoped-store.ts';

/**
 * A store that keeps values in this process's memory, copied on the way in and out so callers cannot
 * change what is stored. The default store of a library call.
 */
export function memoryStore(): StorePlugin<'memory'> {
  const entries = new Map<string, string>();
  // Each read parses the stored text anew, so every caller gets its own copy.
  const read = (key: string): unknown => {
    const value = entries.get(key);
    return value === undefined ? null : JSON.parse(value);
  };
  return {
    specificationVersion: 'v1',
    kind: 'store',
    id: 'memory',
    async getItem<T>(key: string) {
      return read(key) as T | null;
    },
    async setItem(key, value) {
      entries.set(key, JSON.stringify(value));
    },
    async removeItem(key) {
      entries.delete(key);
    },
    async getItems(keys) {
      return batchKeys('getItems', keys).map(read);
    },
    async setItems(batch) {
      // Every value serialised before any is stored: a value JSON cannot hold fails the batch with nothing written.
      entryKeys('setItems', batch);
      const texts = batch.map(({ key, value }) => [key, JSON.stringify(value)] as const);
      for (const [key, text] of texts) entries.set(key, text);
    },
    async removeItems(keys) {
      for (const key of batchKeys('removeItems', keys)) entries.delete(key);
    },
    async setItemIfAbsent(key, value) {
      if (entries.has(key)) return false;
      entries.set(key, JSON.stringify(value));
      return true;
    },
  };
}
