import { batchKeys, CtxkitError, describeKeys, entryKeys, type StoreEntry, type StorePlugin } from '@ctxkit/core';
import { hasDotSegment, normalizeKey, type Storage } from 'unstorage';

/**
 * A key as unstorage keeps it (normalised: `/` and `\\` as `:`, no leading, trailing or doubled `:`), or an
 * error for a key unstorage refuses to write (empty once normalised, or with a `.` or `..` segment). For a store
 * that writes past unstorage (an exclusive file create, a Redis `SET NX`) and must refuse what `setItem` refuses.
 * @throws Error naming the key, for a key unstorage refuses
 * @example storeKey('conversations/a:r1') // 'conversations:a:r1'
 */
export function storeKey(key: string): string {
  const normalized = normalizeKey(key);
  if (!normalized || hasDotSegment(normalized)) throw new Error(`Invalid key: ${JSON.stringify(key)}. Empty keys and "." or ".." segments are refused, as setItem refuses them`);
  return normalized;
}

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
  // `keys`: the key quoted, or a batch as describeKeys names it.
  const guardKeys = async <T>(operation: string, keys: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (cause) {
      throw new CtxkitError({ code: 'STORE_ERROR', source: 'store', message: `${operation} ${keys} failed: ${(cause as Error)?.message ?? String(cause)}`, cause });
    }
  };
  const guard = <T>(operation: string, key: string, run: () => Promise<T>): Promise<T> => guardKeys(operation, JSON.stringify(key), run);
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
        return ttl === undefined ? storage.setItem(prefix + key, stored(value)) : storage.setItem(prefix + key, stored(value), { ttl });
      }),
    removeItem: (key) => guard('removeItem', key, () => storage.removeItem(prefix + key)),
    // One storage.setItems call: the driver's own batch where it has one, its setItem per key (in parallel) elsewhere.
    setItems: async (entries) => {
      const keys = entryKeys('setItems', entries);
      if (keys.length > 0) await guardKeys('setItems', describeKeys(keys), () => writeBatch(storage, prefix, entries, options));
    },
    // unstorage has no batched remove: each distinct key removed at once, in parallel.
    removeItems: async (keys) => {
      if (batchKeys('removeItems', keys).length === 0) return;
      await guardKeys('removeItems', describeKeys(keys), async () => {
        await Promise.all([...new Set(keys)].map((key) => storage.removeItem(prefix + key)));
      });
    },
    // One storage.getItems call: one MGET on Redis, the driver's getItem per key (in parallel) elsewhere.
    getItems: async (keys) => (batchKeys('getItems', keys).length === 0 ? [] : guardKeys('getItems', describeKeys(keys), () => readBatch(storage, prefix, keys))),
  };
}

/**
 * A value as it goes to unstorage: strings as JSON text, since unstorage parses what it reads back (destr),
 * so "123" or "true" would come back as a number or boolean; JSON text reads back as the same string.
 */
function stored(value: unknown): never {
  return (typeof value === 'string' ? JSON.stringify(value) : value) as never;
}

/**
 * Writes `entries` through one `storage.setItems`, leaving what `setItem` on each in order would. unstorage
 * writes a batch's entries in parallel where the driver has no batch of its own, so of several entries for
 * one key (matched as unstorage normalises keys) only the last is sent; `undefined`, which `setItem` takes
 * as a removal, is removed. Each entry carries its own expiry.
 */
async function writeBatch(storage: Storage, prefix: string, entries: readonly StoreEntry[], options: UnstorageStoreOptions): Promise<void> {
  const last = new Map<string, StoreEntry>();
  for (const entry of entries) {
    const normalized = normalizeKey(prefix + entry.key);
    last.delete(normalized);
    last.set(normalized, entry);
  }
  const written = [...last.values()].filter(({ value }) => value !== undefined);
  const removed = [...last.values()].filter(({ value }) => value === undefined);
  const items = written.map(({ key, value }) => {
    const ttl = options.ttlSeconds?.(key);
    return { key: prefix + key, value: stored(value), ...(ttl === undefined ? {} : { options: { ttl } }) };
  });
  await Promise.all([storage.setItems(items), ...removed.map(({ key }) => storage.removeItem(prefix + key))]);
}

/**
 * The values of `keys` through `storage.getItems`, in the order asked. unstorage answers `{ key, value }`
 * grouped by mount, under the normalised key, so answers are matched by key, not position; a key given
 * twice is asked once and answered with a copy the second time (as `getItem` gives each caller its own).
 * A key the answer does not name (a storage of the host's that names keys its own way) is read on its own.
 */
async function readBatch(storage: Storage, prefix: string, keys: readonly string[]): Promise<unknown[]> {
  const unique = [...new Set(keys)];
  const entries = await storage.getItems(unique.map((key) => prefix + key));
  const answered = new Map<string, unknown>(entries.map((entry) => [entry.key, entry.value]));
  const given = new Set<string>();
  const values: unknown[] = [];
  for (const key of keys) {
    const normalized = normalizeKey(prefix + key);
    let value = answered.has(normalized) ? answered.get(normalized) : await storage.getItem(prefix + key);
    // The file drivers hand back a read failure as the value (see getItem): a failure, not an entry.
    if (value instanceof Error) throw value;
    if (given.has(normalized) && typeof value === 'object' && value !== null) value = structuredClone(value);
    given.add(normalized);
    values.push(value ?? null);
  }
  return values;
}
