import { CtxkitError, type StorePlugin } from '@ctxkit/core';
import type { Storage } from 'unstorage';

/** Options for {@link unstorageStore}. */
export interface UnstorageStoreOptions {
  /** A key prefix, so several runs or tools can share one storage. @default '' */
  prefix?: string;
  /**
   * Seconds an entry written under a key lives, or undefined for no expiry; passed to the driver as
   * unstorage's `ttl` option (drivers without expiry ignore it). @default no expiry
   */
  ttlSeconds?: (key: string) => number | undefined;
}

/**
 * A store plugin over any unstorage instance: memory, the file system, Redis, a KV service. Point a fleet
 * of agent workers at one Redis storage and they share archives and learned windows.
 * Failures of the driver become `CtxkitError` STORE_ERROR naming the key. Every value reads back as it was
 * written, strings byte for byte (they are kept as JSON text, so "123" stays a string).
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
    // unstorage's file drivers hand back a read failure other than "not found" (ENOTDIR, ENAMETOOLONG, a NUL
    // in the path) as the value read instead of throwing it: it is a failure here, not a stored entry.
    getItem: <T>(key: string) =>
      guard('getItem', key, async () => {
        const value = await storage.getItem(prefix + key);
        if (value instanceof Error) throw value;
        return (value ?? null) as T | null;
      }),
    // unstorage parses what it reads back (destr), so a string such as "123" or "true" would come back as a
    // number or boolean: strings go in as JSON text, which reads back as the same string.
    setItem: (key, value) =>
      guard('setItem', key, () => {
        const ttl = options.ttlSeconds?.(key);
        const stored = (typeof value === 'string' ? JSON.stringify(value) : value) as never;
        return ttl === undefined ? storage.setItem(prefix + key, stored) : storage.setItem(prefix + key, stored, { ttl });
      }),
    removeItem: (key) => guard('removeItem', key, () => storage.removeItem(prefix + key)),
  };
}
