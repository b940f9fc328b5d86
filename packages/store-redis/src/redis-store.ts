import { batchKeys, CtxkitError, conversationKeyPrefix, describeKeys, entryKeys, type StoreEntry, type StorePlugin } from '@ctxkit/core';
import { storeKey, unstorageStore } from '@ctxkit/store';
import type { Redis } from 'ioredis';
import { createStorage, joinKeys } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';

const source = 'store-redis';

/** Options for {@link redisStore}. */
export interface RedisStoreOptions {
  /** The server: `redis://[:password@]host:port[/db]`, or `rediss://` for TLS. */
  url: string;
  /** A key prefix, so several fleets or environments share one server: `ctxkit` keeps keys as `ctxkit:…`. @default no prefix */
  base?: string;
  /**
   * Seconds an archive entry (a conversation's archived tool results, see {@link isArchiveKey}) lives
   * after it is written; `0` keeps archives until removed. Learned windows and calibrations never expire.
   * @default 604_800 (7 days)
   */
  ttlSeconds?: number;
  /**
   * Milliseconds a store call may take before it fails with STORE_ERROR (connecting included), so a step
   * never waits long on a server that is down; the engine treats that as "no archive this step".
   * @default 1_000
   */
  timeoutMs?: number;
  /** Told about connection errors (the client reconnects by itself); ignored by default so they do not crash the process. */
  onError?: (error: Error) => void;
}

/** A store plugin on Redis, with a way to close its connection. */
export interface RedisStore extends StorePlugin<'redis'> {
  /** Closes the connection, so the process can exit. The store fails every call after it. */
  close(): Promise<void>;
  /** The ioredis client underneath, for health checks and metrics. */
  readonly client: Redis;
}

const handleKey = /^r[1-9][0-9]*$/;

/**
 * True for the keys of archived tool results, which expire: everything under a conversation
 * (`conversations:<id>:…`), and the unscoped archive of a manager without a conversationId (handles
 * such as `r7` and microcompaction's `microcompact:…` bookkeeping). Everything else (learned and
 * discovered windows `windows:…`, calibrations, a host's own keys) is kept until removed.
 */
export function isArchiveKey(key: string): boolean {
  return key.startsWith(conversationKeyPrefix) || key.startsWith('microcompact:') || handleKey.test(key);
}

function checkOptions(options: RedisStoreOptions): void {
  if (typeof options?.url !== 'string' || !/^rediss?:\/\//.test(options.url)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `redisStore needs url as "redis://host:port" or "rediss://host:port", got ${JSON.stringify(options?.url)}` });
  }
  const { ttlSeconds, timeoutMs, base } = options;
  if (ttlSeconds !== undefined && !(Number.isInteger(ttlSeconds) && ttlSeconds >= 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `redisStore option ttlSeconds must be a whole number of seconds ≥ 0 (0: no expiry), got ${String(ttlSeconds)}` });
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `redisStore option timeoutMs must be a number of milliseconds above 0, got ${String(timeoutMs)}` });
  }
  if (base !== undefined && (typeof base !== 'string' || /[*?[\]\s]/.test(base))) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `redisStore option base must be a key prefix without spaces or glob characters, got ${JSON.stringify(base)}` });
  }
}

/**
 * A failed call as STORE_ERROR that says which server failed and how: ioredis' own messages ("Command
 * timed out", "OOM command not allowed ...") name neither the server nor the option that bounds the wait.
 * `keys` is the key quoted, or a batch as `describeKeys` names it.
 */
function located(operation: string, keys: string, error: unknown, server: { where: string; timeoutMs: number }): CtxkitError {
  const driverError = CtxkitError.isInstance(error) && error.cause instanceof Error ? error.cause : error;
  const text = driverError instanceof Error ? driverError.message : String(driverError);
  const what = /command timed out/i.test(text)
    ? `did not answer within ${server.timeoutMs} ms (timeoutMs)`
    : /max retries per request|connection close|connection is closed/i.test(text)
      ? `dropped the connection (${text})`
      : `refused it: ${text}`;
  return new CtxkitError({ code: 'STORE_ERROR', source, message: `${operation} ${keys} failed: ${server.where} ${what}`, cause: driverError });
}

/** The Redis key unstorage's driver writes for a store key: the base joined as it joins it (a key it refuses is refused). */
function redisKeyOf(base: string | undefined, key: string): string {
  return joinKeys(base ?? '', storeKey(key));
}

/**
 * Writes `entries` in one MULTI/EXEC: every key checked first (a key `setItem` refuses fails the batch with
 * nothing sent), values as the JSON text the unstorage driver writes, `undefined` removed as `setItem`
 * removes it. A command the server refuses inside the transaction fails the batch.
 */
async function writeBatch(client: Redis, base: string | undefined, entries: readonly StoreEntry[], expiryOf: (key: string) => number | undefined): Promise<void> {
  const commands = entries.map(({ key, value }) => ({ redisKey: redisKeyOf(base, key), text: value === undefined ? undefined : JSON.stringify(value), ttl: expiryOf(key) }));
  const transaction = client.multi();
  for (const { redisKey, text, ttl } of commands) {
    if (text === undefined) transaction.unlink(redisKey);
    else if (ttl === undefined) transaction.set(redisKey, text);
    else transaction.set(redisKey, text, 'EX', ttl);
  }
  const answers = await transaction.exec();
  if (answers === null) throw new Error('the transaction was aborted');
  const refused = answers.find(([error]) => error);
  if (refused) throw refused[0];
}

/**
 * A store for a fleet of agent workers, on unstorage's Redis driver (ioredis): every worker pointed at
 * the same server sees the same archived tool results, learned windows and calibrations. Archive
 * entries expire `ttlSeconds` after they are written; windows and calibrations do not. Give each
 * conversation its `conversationId` (in `createCtxkit`/`createContextManager` and
 * `createRestoreHandler`) so two conversations never see each other's archives.
 *
 * When to use: agent sessions that run on several processes or machines, where a `restore_tool_result`
 * call may land on another worker than the one that archived.
 *
 * Gotchas: a call fails with STORE_ERROR after `timeoutMs` (the server down or unreachable); the client
 * reconnects by itself, and the engine carries on without archiving meanwhile. Configure the server to
 * persist (append-only file), or a Redis restart loses archives. Call `close()` when done, or the open
 * connection keeps the process alive.
 * @default ttlSeconds 604_800 (7 days), timeoutMs 1_000, no base
 * @throws CtxkitError INVALID_ARGUMENT for a bad option; calls reject with STORE_ERROR naming the key
 * @example
 * ```ts
 * const store = redisStore({ url: 'redis://127.0.0.1:6379', base: 'ctxkit', ttlSeconds: 86_400 });
 * const manager = createCtxkit({ model: 'gpt-4o', contextWindow: 128_000, store, conversationId: 'ticket-8812' });
 * const restore = createRestoreHandler(store, { conversationId: 'ticket-8812' }); // on any worker
 * ```
 */
export function redisStore(options: RedisStoreOptions): RedisStore {
  checkOptions(options);
  const { url, base, ttlSeconds = 604_800, timeoutMs = 1_000, onError } = options;
  const driver = redisDriver({
    url,
    ...(base ? { base } : {}),
    // Bounded: a command fails after timeoutMs also while it waits for a connection.
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1_000),
    maxRetriesPerRequest: 1,
    // Connect on the first call, not at creation: creating a store does no I/O.
    lazyConnect: true,
  });
  const client = driver.getInstance?.() as Redis;
  client.on('error', (error: Error) => {
    try {
      onError?.(error);
    } catch {
      // a failing listener must not crash the process
    }
  });
  let closed = false;
  const storage = createStorage({ driver });
  // Archive keys expire, whichever call writes them.
  const expiryOf = (key: string): number | undefined => (ttlSeconds > 0 && isArchiveKey(key) ? ttlSeconds : undefined);
  const inner = unstorageStore(storage, { ttlSeconds: expiryOf });
  // Once connected, a call while the client is reconnecting fails at once rather than queueing: a write
  // sent after its caller was told it failed could land later, out of order.
  const ready = async (operation: string, keys: string) => {
    if (closed) throw new CtxkitError({ code: 'STORE_ERROR', source, message: `${operation} ${keys} failed: the store was closed` });
    if (client.status === 'wait') await client.connect().catch(() => undefined);
    if (client.status === 'reconnecting' || client.status === 'end' || client.status === 'close') {
      throw new CtxkitError({
        code: 'STORE_ERROR',
        source,
        message: `${operation} ${keys} failed: Redis at ${client.options.host}:${client.options.port} is unreachable (${client.status})`,
      });
    }
  };
  const callOn = async <T>(operation: string, keys: string, run: () => Promise<T>): Promise<T> => {
    await ready(operation, keys);
    try {
      return await run();
    } catch (error) {
      throw located(operation, keys, error, { where: `Redis at ${client.options.host}:${client.options.port}`, timeoutMs });
    }
  };
  const call = <T>(operation: string, key: string, run: () => Promise<T>): Promise<T> => callOn(operation, JSON.stringify(key), run);
  return {
    specificationVersion: 'v1',
    kind: 'store',
    id: 'redis',
    client,
    getItem<T>(key: string) {
      return call('getItem', key, () => inner.getItem<T>(key));
    },
    setItem(key, value) {
      return call('setItem', key, () => inner.setItem(key, value));
    },
    removeItem(key) {
      return call('removeItem', key, () => inner.removeItem(key));
    },
    // One MGET (unstorage's Redis driver reads a batch with it), answered as getItem answers each key.
    async getItems(keys) {
      if (batchKeys('getItems', keys).length === 0) return [];
      return callOn('getItems', describeKeys(keys), () => inner.getItems!(keys));
    },
    // One MULTI/EXEC (one round trip): each entry a SET on the key and text the unstorage driver writes, with
    // the expiry setItem gives it, in order, so a later entry for a key wins; the server applies the batch
    // whole, so no other client reads half of it.
    async setItems(entries) {
      const keys = entryKeys('setItems', entries);
      if (keys.length > 0) await callOn('setItems', describeKeys(keys), () => writeBatch(client, base, entries, expiryOf));
    },
    // One UNLINK for every key, as the unstorage driver removes one.
    async removeItems(keys) {
      if (batchKeys('removeItems', keys).length === 0) return;
      return callOn('removeItems', describeKeys(keys), async () => {
        await client.unlink(...keys.map((key) => redisKeyOf(base, key)));
      });
    },
    // SET ... NX on the key and text the unstorage driver writes (base joined as it joins it, the value as
    // JSON text), so a claimed entry reads back through getItem like any other and expires like one.
    setItemIfAbsent(key, value) {
      return call('setItemIfAbsent', key, async () => {
        // The keys unstorage refuses for setItem and getItem are refused: claimed, "" would take the base key itself.
        const redisKey = redisKeyOf(base, key);
        const text = JSON.stringify(value);
        const ttl = expiryOf(key);
        const answer = ttl === undefined ? await client.set(redisKey, text, 'NX') : await client.set(redisKey, text, 'EX', ttl, 'NX');
        return answer === 'OK';
      });
    },
    async close() {
      closed = true;
      await client.quit().catch(() => client.disconnect());
    },
  };
}
