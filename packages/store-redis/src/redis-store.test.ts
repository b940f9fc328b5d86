import { CtxkitError, conversationStore } from '@ctxkit/core';
import { type RedisTestServer, redisMissingMessage, redisServerPath, runStoreConformance, startRedisServer } from '@ctxkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isArchiveKey, type RedisStore, redisStore } from './redis-store.ts';

const installed = redisServerPath() !== undefined;
if (!installed) console.warn(`@ctxkit/store-redis: ${redisMissingMessage}`);

describe('redisStore options', () => {
  it.each([
    [{ url: 'http://127.0.0.1:6379' }, 'redisStore needs url as "redis://host:port" or "rediss://host:port", got "http://127.0.0.1:6379"'],
    [{ url: 'redis://127.0.0.1:6379', ttlSeconds: 1.5 }, 'redisStore option ttlSeconds must be a whole number of seconds ≥ 0 (0: no expiry), got 1.5'],
    [{ url: 'redis://127.0.0.1:6379', timeoutMs: 0 }, 'redisStore option timeoutMs must be a number of milliseconds above 0, got 0'],
    [{ url: 'redis://127.0.0.1:6379', base: 'fleet *' }, 'redisStore option base must be a key prefix without spaces or glob characters, got "fleet *"'],
  ])('rejects %j with a clear error', (options, message) => {
    expect(() => redisStore(options)).toThrow(`[ctxkit:store-redis] ${message}`);
  });

  it('counts conversation archives and unscoped archives as expiring, windows and calibrations as kept', () => {
    expect(isArchiveKey('conversations:ticket-1:r7')).toBe(true);
    expect(isArchiveKey('conversations:ticket-1:microcompact:next-handle')).toBe(true);
    expect(isArchiveKey('r7')).toBe(true);
    expect(isArchiveKey('microcompact:seen:abc')).toBe(true);
    expect(isArchiveKey('windows:ollama:qwen3%3A8b')).toBe(false);
    expect(isArchiveKey('calibrations')).toBe(false);
    expect(isArchiveKey('r0')).toBe(false);
  });
});

/** A redis-server for the enclosing describe, and a way to open stores on it; all are closed after it. */
function useRedisServer() {
  const running: { server?: RedisTestServer } = {};
  const stores: RedisStore[] = [];
  beforeAll(async () => {
    running.server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await running.server?.close();
  });
  return {
    get server() {
      return running.server!;
    },
    open(options: Partial<Parameters<typeof redisStore>[0]> = {}) {
      const store = redisStore({ url: running.server!.url, ...options });
      stores.push(store);
      return store;
    },
  };
}

describe.skipIf(!installed)('redisStore on a real redis-server (127.0.0.1)', () => {
  const redis = useRedisServer();
  const open = redis.open;

  runStoreConformance('redis', () => open({ base: 'conformance' }));

  it('refuses to claim the keys setItem refuses, so "" never takes the base key itself', async () => {
    const store = open({ base: 'claims' });
    for (const key of ['', '.', '..', 'a:..', 'a:.:b']) {
      await expect(store.setItemIfAbsent!(key, 1)).rejects.toThrow(`setItemIfAbsent ${JSON.stringify(key)} failed`);
      await expect(store.setItem(key, 1)).rejects.toThrow('Invalid key');
    }
    expect(await store.client.exists('claims', 'claims:a:..', 'claims:a:.:b')).toBe(0);
    expect(await store.setItemIfAbsent!('键🔑:a/b', 1)).toBe(true);
    expect(await store.getItem('键🔑:a:b')).toBe(1);
  });

  it('expires archive entries after ttlSeconds and keeps windows and calibrations', async () => {
    const store = open({ base: 'fleet-a', ttlSeconds: 3_600 });
    const archive = conversationStore(store, 'ticket-8812');
    await archive.setItem('r1', { type: 'ctxkit.archived-tool-result', handle: 'r1', toolCallId: 'call_1', content: 'x' });
    await store.setItem('r2', { type: 'ctxkit.archived-tool-result', handle: 'r2', toolCallId: 'call_2', content: 'y' });
    await store.setItem('windows:openai:gpt-4o', { learned: { contextWindow: 120_000, at: 1 } });
    await store.setItem('calibrations', { 'gpt-4o': { exact: { ratio: 1.02, samples: 9 } } });
    const ttl = (key: string) => store.client.ttl(key);
    const archived = await ttl('fleet-a:conversations:ticket-8812:r1');
    expect(archived).toBeGreaterThan(3_500);
    expect(archived).toBeLessThanOrEqual(3_600);
    expect(await ttl('fleet-a:r2')).toBeGreaterThan(3_500);
    // -1: the key exists and has no expiry.
    expect(await ttl('fleet-a:windows:openai:gpt-4o')).toBe(-1);
    expect(await ttl('fleet-a:calibrations')).toBe(-1);
  });

  it('lets an archive entry expire for real', async () => {
    const store = open({ base: 'fleet-b', ttlSeconds: 1 });
    const archive = conversationStore(store, 'short-lived');
    await archive.setItem('r1', 'gone soon');
    await store.setItem('windows:ollama:qwen3', { contextWindow: 40_960 });
    expect(await archive.getItem('r1')).toBe('gone soon');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await archive.getItem('r1')).toBeNull();
    expect(await store.getItem('windows:ollama:qwen3')).toEqual({ contextWindow: 40_960 });
  });

  it('keeps archives without expiry when ttlSeconds is 0', async () => {
    const store = open({ base: 'fleet-c', ttlSeconds: 0 });
    await conversationStore(store, 'kept').setItem('r1', 'kept');
    expect(await store.client.ttl('fleet-c:conversations:kept:r1')).toBe(-1);
  });

  it('fails calls with STORE_ERROR while the server is down, and reads everything written before once it is back', async () => {
    const errors: Error[] = [];
    void errors;
    const store = open({ base: 'fleet-d', timeoutMs: 10_000, onError: (error) => errors.push(error) });
    const archive = conversationStore(store, 'outage');
    await archive.setItem('r1', 'written before the outage\r\n');
    await store.setItem('windows:openai:gpt-4o', { learned: { contextWindow: 120_000, at: 1 } });

    await redis.server.stop();
    // Once the client has seen the connection drop, calls fail at once instead of waiting for timeoutMs.
    while (store.client.status === 'ready') await new Promise((resolve) => setTimeout(resolve, 10));
    const failure = await archive.getItem('r1').catch((caught: unknown) => caught);
    expect(CtxkitError.isInstance(failure, 'STORE_ERROR')).toBe(true);
    expect((failure as Error).message).toMatch(/^\[ctxkit:store-redis\] getItem "conversations:outage:r1" failed: Redis at 127\.0\.0\.1:\d+ /);
    await expect(archive.setItem('r2', 'during the outage')).rejects.toThrow(
      `[ctxkit:store-redis] setItem "conversations:outage:r2" failed: Redis at 127.0.0.1:${redis.server.port} is unreachable (reconnecting)`,
    );

    await redis.server.start();
    // The client reconnects by itself (a retry or two after the server is back).
    let value: unknown;
    for (let attempt = 0; attempt < 100; attempt += 1) {
      value = await archive.getItem('r1').catch(() => undefined);
      if (value !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(value).toBe('written before the outage\r\n');
    expect(await store.getItem('windows:openai:gpt-4o')).toEqual({ learned: { contextWindow: 120_000, at: 1 } });
    // The write that failed during the outage did not land later.
    expect(await archive.getItem('r2')).toBeNull();
  }, 30_000);

  it('names the server and the timeout when Redis does not answer in time', async () => {
    const store = open({ base: 'fleet-e', timeoutMs: 100 });
    await store.setItem('windows:a:b', 1);
    await open().client.call('CLIENT', 'PAUSE', '700', 'ALL');
    await expect(store.getItem('windows:a:b')).rejects.toThrow(`[ctxkit:store-redis] getItem "windows:a:b" failed: Redis at 127.0.0.1:${redis.server.port} did not answer within 100 ms (timeoutMs)`);
    await new Promise((resolve) => setTimeout(resolve, 700));
  });

  it('names the server when Redis refuses a write', async () => {
    const store = open({ base: 'fleet-f' });
    const admin = open();
    await admin.client.call('CONFIG', 'SET', 'maxmemory', '1');
    try {
      const failure = await store.setItem('windows:a:b', 'x'.repeat(1_000)).catch((caught: unknown) => caught);
      expect(CtxkitError.isInstance(failure, 'STORE_ERROR')).toBe(true);
      expect((failure as Error).message).toMatch(
        new RegExp(`^\\[ctxkit:store-redis\\] setItem "windows:a:b" failed: Redis at 127\\.0\\.0\\.1:${redis.server.port} refused it: OOM command not allowed`),
      );
    } finally {
      await admin.client.call('CONFIG', 'SET', 'maxmemory', '0');
    }
  });

  it('fails every call after close()', async () => {
    const store = redisStore({ url: redis.server.url });
    await store.setItem('windows:x:y', 1);
    await store.close();
    await expect(store.getItem('windows:x:y')).rejects.toThrow('[ctxkit:store-redis] getItem "windows:x:y" failed: the store was closed');
  });
});

describe.skipIf(!installed)('redisStore.getItems on a real redis-server (127.0.0.1)', () => {
  const redis = useRedisServer();
  const open = redis.open;
  /** How many times the server ran `command` since it started (INFO commandstats). */
  const commandCalls = async (command: string) => {
    const info = String(await open().client.info('commandstats'));
    return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
  };

  it('reads a batch of keys with one MGET, in the order asked, under its base and a conversation', async () => {
    const store = open({ base: 'batch' });
    const archive = conversationStore(store, 'ticket-9');
    await archive.setItem('r1', { handle: 'r1', content: 'line\r\n' });
    await archive.setItem('microcompact:seen:abc', 'r1');
    await archive.setItem('text', '123');
    await store.getItem('warm-up');
    const [gets, mgets] = [await commandCalls('get'), await commandCalls('mget')];
    const keys = ['microcompact:seen:abc', 'absent', 'r1', 'text', 'r1'];
    expect(await archive.getItems!(keys)).toEqual(['r1', null, { handle: 'r1', content: 'line\r\n' }, '123', { handle: 'r1', content: 'line\r\n' }]);
    expect([(await commandCalls('get')) - gets, (await commandCalls('mget')) - mgets]).toEqual([0, 1]);
    expect(await store.client.get('batch:conversations:ticket-9:text')).toBe('"123"');
  });

  it('names the server and the keys when a batch is not answered in time, or the store is closed', async () => {
    const store = open({ base: 'fleet-g', timeoutMs: 100 });
    await store.setItem('windows:a:b', 1);
    await open().client.call('CLIENT', 'PAUSE', '700', 'ALL');
    await expect(store.getItems!(['windows:a:b', 'r1'])).rejects.toThrow(
      `[ctxkit:store-redis] getItems "windows:a:b", "r1" failed: Redis at 127.0.0.1:${redis.server.port} did not answer within 100 ms (timeoutMs)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    const closed = redisStore({ url: redis.server.url });
    await closed.close();
    await expect(closed.getItems!(['r1'])).rejects.toThrow('[ctxkit:store-redis] getItems "r1" failed: the store was closed');
  });
});

describe.skipIf(!installed)('redisStore.setItems and removeItems on a real redis-server (127.0.0.1)', () => {
  const redis = useRedisServer();
  const open = redis.open;
  /** How many times the server ran each command since it started (INFO commandstats). */
  const commandCalls = async (...commands: string[]) => {
    const info = String(await open().client.info('commandstats'));
    return commands.map((command) => Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0));
  };

  it('refuses a batch that is not an array of keys or entries with an error naming the call, sending nothing', async () => {
    const store = open({ base: 'batch-args' });
    await store.setItem('a', 1);
    await expect(store.getItems!('a' as never)).rejects.toThrow('[ctxkit:core] getItems takes an array of keys, got string');
    await expect(store.removeItems!([7] as never)).rejects.toThrow('[ctxkit:core] removeItems keys[0] must be a string, got number');
    await expect(store.setItems!([{ value: 1 }] as never)).rejects.toThrow('[ctxkit:core] setItems entries[0] must be { key: string, value }, got a key of type undefined');
    expect(await store.getItem('a')).toBe(1);
  });

  it('writes a batch in one transaction, in order, archive keys expiring as setItem sets them and windows kept, and removes a batch with one UNLINK', async () => {
    const store = open({ base: 'batch-write', ttlSeconds: 3_600 });
    const archive = conversationStore(store, 'ticket-9');
    await store.getItem('warm-up');
    const before = await commandCalls('exec', 'set', 'unlink');
    await archive.setItems!([
      { key: 'r1', value: { handle: 'r1', content: 'line\r\n' } },
      { key: 'microcompact:seen:abc', value: 'r9' },
      { key: 'text', value: '123' },
      { key: 'microcompact:seen:abc', value: 'r1' },
    ]);
    await store.setItems!([{ key: 'windows:a:b', value: { contextWindow: 8_192 } }]);
    const after = await commandCalls('exec', 'set', 'unlink');
    expect(after.map((count, index) => count - before[index]!)).toEqual([2, 5, 0]);
    expect(await archive.getItems!(['r1', 'microcompact:seen:abc', 'text'])).toEqual([{ handle: 'r1', content: 'line\r\n' }, 'r1', '123']);
    expect(await store.client.get('batch-write:conversations:ticket-9:text')).toBe('"123"');
    const ttl = await store.client.ttl('batch-write:conversations:ticket-9:r1');
    expect(ttl).toBeGreaterThan(3_500);
    expect(ttl).toBeLessThanOrEqual(3_600);
    expect(await store.client.ttl('batch-write:windows:a:b')).toBe(-1);
    await archive.removeItems!(['r1', 'text', 'absent']);
    expect((await commandCalls('unlink'))[0]! - after[2]!).toBe(1);
    expect(await archive.getItems!(['r1', 'microcompact:seen:abc', 'text'])).toEqual([null, 'r1', null]);
  });

  it('refuses a batch holding a key setItem refuses, writing none of it', async () => {
    const store = open({ base: 'batch-refused' });
    await expect(
      store.setItems!([
        { key: 'r1', value: 1 },
        { key: 'a:..', value: 2 },
      ]),
    ).rejects.toThrow('[ctxkit:store-redis] setItems "r1", "a:.." failed: Redis at 127.0.0.1');
    expect(await store.client.exists('batch-refused:r1')).toBe(0);
  });

  it('says the connection dropped, not that Redis refused, when the connection closes with a batch in flight', async () => {
    const store = open({ base: 'batch-dropped', timeoutMs: 5_000 });
    const admin = open();
    await store.setItem('windows:a:b', 1);
    const id = String(await store.client.call('CLIENT', 'ID'));
    // The transaction is queued (MULTI and the SETs answered) and waits at EXEC, paused, when its connection is killed.
    await admin.client.call('CLIENT', 'PAUSE', '1000', 'WRITE');
    const failure = store.setItems!([
      { key: 'r1', value: 1 },
      { key: 'r2', value: 2 },
    ]).catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await admin.client.call('CLIENT', 'KILL', 'ID', id);
    expect(CtxkitError.isInstance(await failure, 'STORE_ERROR')).toBe(true);
    expect(((await failure) as Error).message).toBe(
      `[ctxkit:store-redis] setItems "r1", "r2" failed: Redis at 127.0.0.1:${redis.server.port} dropped the connection (Command aborted due to connection close)`,
    );
    await admin.client.call('CLIENT', 'UNPAUSE');
    expect(await admin.client.exists('batch-dropped:r1')).toBe(0);
  });

  it('names the server and the keys when a batch is not answered in time, or the store is closed', async () => {
    const store = open({ base: 'batch-slow', timeoutMs: 100 });
    await store.setItem('windows:a:b', 1);
    await open().client.call('CLIENT', 'PAUSE', '700', 'ALL');
    const entries = ['r1', 'r2', 'r3', 'r4'].map((key) => ({ key, value: key }));
    await expect(store.setItems!(entries)).rejects.toThrow(
      `[ctxkit:store-redis] setItems "r1", "r2", "r3" and 1 more failed: Redis at 127.0.0.1:${redis.server.port} did not answer within 100 ms (timeoutMs)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    const closed = redisStore({ url: redis.server.url });
    await closed.close();
    await expect(closed.setItems!(entries)).rejects.toThrow('[ctxkit:store-redis] setItems "r1", "r2", "r3" and 1 more failed: the store was closed');
    await expect(closed.removeItems!(['r1'])).rejects.toThrow('[ctxkit:store-redis] removeItems "r1" failed: the store was closed');
  });
});
