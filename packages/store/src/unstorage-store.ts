import { CtxkitError, type StorePlugin } from '@ctxkit/core';
import type { Storage } from 'unstorage';

/** Options for {@link unstorageStore}. */
export interface UnstorageStoreOptions {
  /** A key prefix, so several runs or tools can share one storage. @default '' */
  prefix?: string;
}

/**
 * A store plugin over any unstorage instance: memory, the file system, Redis, a KV service. Point a fleet
 * of agent workers at one Redis storage and they share archives and learned windows.
 * Failures of the driver become `CtxkitError` STORE_ERROR naming the key.
 * @example
 * ```ts
 * import { createStorage } from 'unstorage';
 * import redisDriver from 'unstorage/drivers/redis';
 * const store = unstorageStore(createStorage({ driver: redisDriver({ url: process.env.REDIS_URL }) }));
 * ```
 */
export function unstorageStore(storage: Storage, options: UnstorageStoreOptions = {}): StorePlugin<'unstorage'> {
  const prefix = options.prefix ? `${options.prefix}:` : '';
  const guard = async <T>(operation: string, key: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (cause) {
      throw new CtxkitError({ code: 'STORE_ERROR', source: 'store', message: `${operation} ${JSON.stringify(key)} failed: ${(cause as Error)?.message ?? String(cause)}`, cause });
    }
  };
  return {
    specificationVersion: 'v1',
    kind: 'store',
    id: 'unstorage',
    getItem: <T>(key: string) => guard('getItem', key, async () => ((await storage.getItem(prefix + key)) ?? null) as T | null),
    setItem: (key, value) => guard('setItem', key, () => storage.setItem(prefix + key, value as never)),
    removeItem: (key) => guard('removeItem', key, () => storage.removeItem(prefix + key)),
  };
}
