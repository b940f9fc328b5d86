import type { StorePlugin } from './plugin.ts';

/**
 * A store that keeps values in this process's memory, copied on the way in and out so callers cannot
 * change what is stored. The default store of a library call.
 */
export function memoryStore(): StorePlugin<'memory'> {
  const entries = new Map<string, string>();
  return {
    specificationVersion: 'v1',
    kind: 'store',
    id: 'memory',
    async getItem<T>(key: string) {
      const value = entries.get(key);
      return value === undefined ? null : (JSON.parse(value) as T);
    },
    async setItem(key, value) {
      entries.set(key, JSON.stringify(value));
    },
    async removeItem(key) {
      entries.delete(key);
    },
    async getItems(keys) {
      return keys.map((key) => {
        const value = entries.get(key);
        return value === undefined ? null : JSON.parse(value);
      });
    },
    async setItemIfAbsent(key, value) {
      if (entries.has(key)) return false;
      entries.set(key, JSON.stringify(value));
      return true;
    },
  };
}
