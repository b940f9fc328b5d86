import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CtxkitError } from '@ctxkit/core';
import { createStorage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { describe, expect, it } from 'vitest';
import { fileStore } from './file-store.ts';
import { storeKey, unstorageStore } from './unstorage-store.ts';

describe('fileStore', () => {
  it('keeps values across store instances (a restart of the process)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-store-'));
    await fileStore(dir).setItem('windows:ollama:llama3.1:8b', { contextWindow: 32_768, source: 'discovered' });
    const again = fileStore(dir);
    expect(await again.getItem('windows:ollama:llama3.1:8b')).toEqual({ contextWindow: 32_768, source: 'discovered' });
    await again.removeItem('windows:ollama:llama3.1:8b');
    expect(await fileStore(dir).getItem('windows:ollama:llama3.1:8b')).toBeNull();
  });

  it('names itself "file", not after the library underneath', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-store-'));
    expect(fileStore(dir)).toMatchObject({ kind: 'store', id: 'file', specificationVersion: 'v1' });
  });
});

describe('fileStore.setItemIfAbsent', () => {
  it('lets one of several store instances on one folder claim a key, and the claim reads back through getItem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-store-'));
    const stores = Array.from({ length: 6 }, () => fileStore(dir));
    const answers = await Promise.all(stores.map((store, index) => store.setItemIfAbsent!('conversations:a%3Ab:r1', { claimedBy: index })));
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await fileStore(dir).getItem('conversations:a%3Ab:r1')).toEqual({ claimedBy: answers.indexOf(true) });
    await fileStore(dir).removeItem('conversations:a%3Ab:r1');
    expect(await stores[3]!.setItemIfAbsent!('conversations:a%3Ab:r1', 'text "quoted"')).toBe(true);
    expect(await stores[0]!.getItem('conversations:a%3Ab:r1')).toBe('text "quoted"');
  });

  it('refuses a key with a .. segment, as setItem does, with STORE_ERROR naming it', async () => {
    const store = fileStore(mkdtempSync(join(tmpdir(), 'ctxkit-store-')));
    await expect(store.setItemIfAbsent!('a:..:escape', 1)).rejects.toThrow('[ctxkit:store] setItemIfAbsent "a:..:escape" failed: Invalid key');
    await expect(store.setItem('a:..:escape', 1)).rejects.toThrow('Invalid key');
  });
});

describe('fileStore.setItemIfAbsent: keys setItem refuses', () => {
  it('refuses "", "." and a "." segment before touching the disk, so the store folder is never created as a file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ctxkit-store-')), 'not-yet');
    const store = fileStore(dir);
    for (const key of ['', '.', ':', 'a:.:b']) {
      await expect(store.setItemIfAbsent!(key, 1)).rejects.toThrow(`[ctxkit:store] setItemIfAbsent ${JSON.stringify(key)} failed: Invalid key`);
    }
    await store.setItem('windows:m', 1);
    expect(await store.getItem('windows:m')).toBe(1);
  });

  it('refuses a key that is the folder of other keys, or sits under another key, instead of answering that it is taken', async () => {
    const store = fileStore(mkdtempSync(join(tmpdir(), 'ctxkit-store-')));
    await store.setItem('conversations:a:r1', 1);
    expect(await store.getItem('conversations:a')).toBeNull();
    await expect(store.setItemIfAbsent!('conversations:a', 2)).rejects.toThrow('setItemIfAbsent "conversations:a" failed: the key is the folder of other keys');
    await store.setItem('leaf', 1);
    await expect(store.setItemIfAbsent!('leaf:child', 2)).rejects.toThrow('[ctxkit:store] setItemIfAbsent "leaf:child" failed');
  });
});

describe('fileStore.getItem: read failures', () => {
  it('rejects with STORE_ERROR when the file cannot be read, instead of answering the error as the value', async () => {
    const store = fileStore(mkdtempSync(join(tmpdir(), 'ctxkit-store-')));
    await store.setItem('leaf', 1);
    await expect(store.getItem('leaf:child')).rejects.toThrow('[ctxkit:store] getItem "leaf:child" failed: ENOTDIR');
    await expect(store.getItem('x'.repeat(300))).rejects.toThrow('ENAMETOOLONG');
    expect(await store.getItem('absent')).toBeNull();
  });
});

describe('unstorageStore', () => {
  it('prefixes keys so several users can share one storage', async () => {
    const storage = createStorage();
    await unstorageStore(storage, { prefix: 'run1' }).setItem('a', 1);
    expect(await storage.getItem('run1:a')).toBe(1);
    expect(await unstorageStore(storage, { prefix: 'run2' }).getItem('a')).toBeNull();
  });

  it('turns driver failures into STORE_ERROR naming the key', async () => {
    const storage = createStorage({
      driver: {
        name: 'broken',
        hasItem: async () => false,
        getItem: async () => {
          throw new Error('connection reset');
        },
        getKeys: async () => [],
      },
    });
    const error = await unstorageStore(storage)
      .getItem('archive:r7')
      .catch((caught: unknown) => caught);
    expect(CtxkitError.isInstance(error, 'STORE_ERROR')).toBe(true);
    expect((error as Error).message).toBe('[ctxkit:store] getItem "archive:r7" failed: connection reset');
  });
});

describe('unstorageStore strings', () => {
  it('reads a string that looks like a number back as that string, and still reads strings written raw by earlier versions', async () => {
    const storage = createStorage();
    const store = unstorageStore(storage);
    await store.setItem('microcompact:seen:abc', '123');
    expect(await store.getItem('microcompact:seen:abc')).toBe('123');
    await storage.setItem('microcompact:seen:old', 'r7');
    expect(await store.getItem('microcompact:seen:old')).toBe('r7');
  });

  it('passes the ttl chosen for a key to the driver', async () => {
    const calls: { key: string; ttl: unknown }[] = [];
    const storage = createStorage({
      driver: {
        name: 'recording',
        hasItem: async () => false,
        getItem: async () => null,
        getKeys: async () => [],
        setItem: async (key, _value, options) => void calls.push({ key, ttl: options?.ttl }),
      },
    });
    const store = unstorageStore(storage, { ttlSeconds: (key) => (key.startsWith('conversations:') ? 60 : undefined) });
    await store.setItem('conversations:c1:r1', { a: 1 });
    await store.setItem('windows:ollama:qwen3', { contextWindow: 40_960 });
    expect(calls).toEqual([
      { key: 'conversations:c1:r1', ttl: 60 },
      { key: 'windows:ollama:qwen3', ttl: undefined },
    ]);
  });
});

describe('unstorageStore.getItems', () => {
  /** A driver with a batched read that records every call it gets. */
  const batchedDriver = (answer: (keys: string[]) => { key: string; value: unknown }[]) => {
    const entries = new Map<string, string>();
    const calls: string[][] = [];
    const driver = {
      name: 'batched',
      hasItem: async (key: string) => entries.has(key),
      getItem: async (key: string) => {
        calls.push([key]);
        return entries.get(key) ?? null;
      },
      getItems: async (items: { key: string }[]) => {
        calls.push(items.map((item) => item.key));
        return answer(items.map((item) => item.key)).map((entry) => ({ key: entry.key, value: entry.value ?? entries.get(entry.key) ?? null }));
      },
      setItem: async (key: string, value: string) => void entries.set(key, value),
      getKeys: async () => [...entries.keys()],
    };
    return { driver, calls };
  };

  it('reads every key in one driver call, in the order asked, strings byte for byte, a key asked twice sent once and answered twice', async () => {
    const { driver, calls } = batchedDriver((keys) => keys.map((key) => ({ key, value: undefined })));
    const storage = createStorage({ driver });
    const store = unstorageStore(storage, { prefix: 'run1' });
    await store.setItem('seen:a', '123');
    await store.setItem('r1', { handle: 'r1' });
    await storage.setItem('run1:seen:old', 'r7');
    calls.length = 0;
    expect(await store.getItems!(['r1', 'seen:a', 'absent', 'seen:old', 'r1'])).toEqual([{ handle: 'r1' }, '123', null, 'r7', { handle: 'r1' }]);
    expect(calls).toEqual([['run1:r1', 'run1:seen:a', 'run1:absent', 'run1:seen:old']]);
    const [first, twin] = (await store.getItems!(['r1', 'r1'])) as { handle: string }[];
    first!.handle = 'changed';
    expect(twin).toEqual({ handle: 'r1' });
    expect(await store.getItems!([])).toEqual([]);
  });

  it('answers in the order asked when keys sit on different mounts, which unstorage answers mount by mount', async () => {
    const storage = createStorage();
    storage.mount('archive', memoryDriver());
    const store = unstorageStore(storage);
    await store.setItem('archive:r1', 'in the mount');
    await store.setItem('archive:r2', 'in the mount too');
    await store.setItem('windows:a', 'at the root');
    expect(await store.getItems!(['archive:r1', 'windows:a', 'archive:r2', 'windows:a'])).toEqual(['in the mount', 'at the root', 'in the mount too', 'at the root']);
  });

  it('reads a key on its own when the driver answers under a key it did not ask for', async () => {
    const { driver, calls } = batchedDriver((keys) => keys.map((key) => ({ key: `elsewhere:${key}`, value: null })));
    const store = unstorageStore(createStorage({ driver }));
    await store.setItem('r1', 'kept');
    calls.length = 0;
    expect(await store.getItems!(['r1', 'r2'])).toEqual(['kept', null]);
    expect(calls).toEqual([['r1', 'r2'], ['r1'], ['r2']]);
  });

  it('turns a driver failure into one STORE_ERROR naming the keys', async () => {
    const storage = createStorage({
      driver: {
        name: 'broken',
        hasItem: async () => false,
        getItem: async () => null,
        getItems: async () => {
          throw new Error('connection reset');
        },
        getKeys: async () => [],
      },
    });
    const error = await unstorageStore(storage).getItems!(['r1', 'r2', 'r3', 'r4']).catch((caught: unknown) => caught);
    expect(CtxkitError.isInstance(error, 'STORE_ERROR')).toBe(true);
    expect((error as Error).message).toBe('[ctxkit:store] getItems "r1", "r2", "r3" and 1 more failed: connection reset');
  });

  it('on the file store, rejects a batch holding a key whose file cannot be read, and reads absent keys as null', async () => {
    const store = fileStore(mkdtempSync(join(tmpdir(), 'ctxkit-store-')));
    await store.setItem('leaf', 1);
    await store.setItem('text', '123');
    expect(await store.getItems!(['text', 'absent', 'leaf'])).toEqual(['123', null, 1]);
    await expect(store.getItems!(['text', 'leaf:child'])).rejects.toThrow('[ctxkit:store] getItems "text", "leaf:child" failed: ENOTDIR');
  });
});

describe('unstorageStore.setItems and removeItems', () => {
  /** A driver that records every write it gets; setItem answers later the earlier it is called, so parallel writes land in reverse. */
  const recordingDriver = (withBatch: boolean) => {
    const entries = new Map<string, string>();
    const calls: unknown[] = [];
    let pending = 0;
    const driver = {
      name: 'recording',
      hasItem: async (key: string) => entries.has(key),
      getItem: async (key: string) => entries.get(key) ?? null,
      setItem: async (key: string, value: string, options: unknown) => {
        calls.push(['setItem', key, options]);
        pending += 1;
        await new Promise((resolve) => setTimeout(resolve, 5 * (10 - pending)));
        entries.set(key, value);
      },
      ...(withBatch
        ? {
            setItems: async (items: { key: string; value: string; options?: unknown }[]) => {
              calls.push(['setItems', items.map(({ key, value, options }) => [key, value, options])]);
              for (const { key, value } of items) entries.set(key, value);
            },
          }
        : {}),
      removeItem: async (key: string) => void entries.delete(key),
      getKeys: async () => [...entries.keys()],
    };
    return { driver, calls };
  };

  it("writes a batch in one driver call, strings as JSON text, each entry with its own expiry, a key's later entry the only one sent", async () => {
    const { driver, calls } = recordingDriver(true);
    const store = unstorageStore(createStorage({ driver }), { prefix: 'run1', ttlSeconds: (key) => (key.startsWith('r') ? 60 : undefined) });
    await store.setItems!([
      { key: 'r1', value: { handle: 'r1' } },
      { key: 'seen:a', value: 'r1' },
      { key: 'seen:b', value: '123' },
      { key: 'seen:a', value: 'r2' },
    ]);
    expect(calls).toEqual([
      [
        'setItems',
        [
          ['run1:r1', '{"handle":"r1"}', { ttl: 60 }],
          ['run1:seen:b', '"123"', undefined],
          ['run1:seen:a', '"r2"', undefined],
        ],
      ],
    ]);
    expect(await store.getItems!(['r1', 'seen:a', 'seen:b'])).toEqual([{ handle: 'r1' }, 'r2', '123']);
    await store.setItems!([]);
    expect(calls).toHaveLength(1);
  });

  it('leaves the later entry for a key on a driver that writes a batch in parallel, its earlier writes finishing last', async () => {
    const { driver, calls } = recordingDriver(false);
    const store = unstorageStore(createStorage({ driver }));
    await store.setItems!([
      { key: 'r1', value: 'first' },
      { key: 'other', value: 1 },
      { key: '/r1', value: 'later' },
    ]);
    expect(await store.getItem('r1')).toBe('later');
    expect(calls.map((call) => (call as string[])[1])).toEqual(['other', 'r1']);
  });

  it('turns a driver failure into one STORE_ERROR naming the keys, and removes several keys at once', async () => {
    const storage = createStorage({
      driver: {
        name: 'full',
        hasItem: async () => false,
        getItem: async () => null,
        setItem: async () => {
          throw new Error('disk full');
        },
        getKeys: async () => [],
      },
    });
    const entries = ['r1', 'r2', 'r3', 'r4', 'r5'].map((key) => ({ key, value: key }));
    const error = await unstorageStore(storage).setItems!(entries).catch((caught: unknown) => caught);
    expect(CtxkitError.isInstance(error, 'STORE_ERROR')).toBe(true);
    expect((error as Error).message).toBe('[ctxkit:store] setItems "r1", "r2", "r3" and 2 more failed: disk full');
    const store = fileStore(mkdtempSync(join(tmpdir(), 'ctxkit-store-')));
    await store.setItems!(entries);
    await store.removeItems!(['r1', 'r3', 'absent', 'r1']);
    expect(await store.getItems!(['r1', 'r2', 'r3'])).toEqual([null, 'r2', null]);
  });
});

describe('storeKey', () => {
  it('gives a key as unstorage keeps it, and refuses the keys setItem refuses', () => {
    expect(storeKey('conversations/a:r1')).toBe('conversations:a:r1');
    expect(storeKey(':r7:')).toBe('r7');
    expect(() => storeKey('')).toThrow('Invalid key: "". Empty keys and "." or ".." segments are refused');
    expect(() => storeKey('a:.:b')).toThrow('Invalid key: "a:.:b"');
    expect(() => storeKey('a/../b')).toThrow('Invalid key: "a/../b"');
  });
});

describe('unstorageStore batches given something other than keys or entries', () => {
  it('reject with an error naming the call and the entry, not a TypeError from inside the store', async () => {
    for (const store of [unstorageStore(createStorage({ driver: memoryDriver() })), fileStore(mkdtempSync(join(tmpdir(), 'ctxkit-batch-args-')))]) {
      await store.setItem('a', 1);
      await expect(store.getItems!(undefined as never)).rejects.toThrow('[ctxkit:core] getItems takes an array of keys, got undefined');
      await expect(store.removeItems!(['a', null] as never)).rejects.toThrow('[ctxkit:core] removeItems keys[1] must be a string, got null');
      await expect(store.setItems!({ key: 'a', value: 2 } as never)).rejects.toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: '[ctxkit:core] setItems takes an array of { key, value } entries, got object' }),
      );
      expect(await store.getItem('a')).toBe(1);
    }
  });
});
