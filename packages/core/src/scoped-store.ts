import { CtxkitError } from './ctxkit-error.ts';
import type { StoreEntry, StorePlugin } from './plugin.ts';

/**
 * Keys as an error message names them: the first three quoted, and how many more, so a batched read of
 * forty keys is recognisable without filling a log line.
 * @example
 * ```ts
 * describeKeys(['r1', 'r2', 'r3', 'r4']); // '"r1", "r2", "r3" and 1 more'
 * ```
 */
export function describeKeys(keys: readonly string[]): string {
  const named = keys
    .slice(0, 3)
    .map((key) => JSON.stringify(key))
    .join(', ');
  return keys.length > 3 ? `${named} and ${keys.length - 3} more` : named;
}

/**
 * The keys of a batched read or remove, checked: a caller in plain JavaScript gets an error naming the call and the key,
 * not a TypeError from inside the store ("keys.map is not a function").
 * @throws CtxkitError INVALID_ARGUMENT when `keys` is not an array of strings
 */
export function batchKeys(operation: string, keys: unknown): string[] {
  if (!Array.isArray(keys)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'core', message: `${operation} takes an array of keys, got ${keys === null ? 'null' : typeof keys}` });
  }
  keys.forEach((key: unknown, index) => {
    if (typeof key !== 'string') {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'core', message: `${operation} keys[${index}] must be a string, got ${key === null ? 'null' : typeof key}` });
    }
  });
  return keys as string[];
}

/**
 * The keys of a batched write's entries, checked: a caller in plain JavaScript gets an error naming the call and the entry,
 * not a TypeError from inside the store ("Cannot destructure property 'key' of null").
 * @throws CtxkitError INVALID_ARGUMENT when `entries` is not an array of `{ key: string, value }`
 */
export function entryKeys(operation: string, entries: unknown): string[] {
  if (!Array.isArray(entries)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'core', message: `${operation} takes an array of { key, value } entries, got ${entries === null ? 'null' : typeof entries}` });
  }
  return entries.map((entry: unknown, index) => {
    const key = (entry as { key?: unknown } | null)?.key;
    if (typeof entry !== 'object' || entry === null || typeof key !== 'string') {
      throw new CtxkitError({
        code: 'INVALID_ARGUMENT',
        source: 'core',
        message: `${operation} entries[${index}] must be { key: string, value }, got ${entry === null ? 'null' : typeof entry === 'object' ? `a key of type ${typeof key}` : typeof entry}`,
      });
    }
    return key;
  });
}

/** The key prefix under which every conversation's entries live: `conversations:<id>:`. */
export const conversationKeyPrefix = 'conversations:';

/**
 * A view of a store that reads and writes every key under `prefix` (a `:` is added between), so several
 * users share one store without seeing each other's keys. The view keeps the store's id.
 * @throws CtxkitError INVALID_ARGUMENT for an empty prefix
 * @example
 * ```ts
 * const run = scopedStore(store, 'run-42');
 * await run.setItem('r7', record); // the store holds it as 'run-42:r7'
 * ```
 */
export function scopedStore<Id extends string>(store: StorePlugin<Id>, prefix: string): StorePlugin<Id> {
  if (typeof prefix !== 'string' || prefix === '') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'core', message: `scopedStore needs a non-empty key prefix, got ${JSON.stringify(prefix)}` });
  }
  const at = prefix.endsWith(':') ? prefix : `${prefix}:`;
  return {
    specificationVersion: store.specificationVersion,
    kind: 'store',
    id: store.id,
    getItem: (key) => store.getItem(at + key),
    setItem: (key, value) => store.setItem(at + key, value),
    removeItem: (key) => store.removeItem(at + key),
    ...(store.setItemIfAbsent ? { setItemIfAbsent: (key: string, value: unknown) => store.setItemIfAbsent!(at + key, value) } : {}),
    ...(store.getItems ? { getItems: async (keys: readonly string[]) => store.getItems!(batchKeys('getItems', keys).map((key) => at + key)) } : {}),
    ...(store.setItems
      ? {
          setItems: async (entries: readonly StoreEntry[]) => {
            entryKeys('setItems', entries);
            await store.setItems!(entries.map(({ key, value }) => ({ key: at + key, value })));
          },
        }
      : {}),
    ...(store.removeItems ? { removeItems: async (keys: readonly string[]) => store.removeItems!(batchKeys('removeItems', keys).map((key) => at + key)) } : {}),
  };
}

/**
 * The key prefix of one conversation: `conversations:` and the id, percent-encoded so that ids holding
 * `:` or `/` (which key-value stores read as separators) can never reach into another conversation.
 * @throws CtxkitError INVALID_ARGUMENT for an id that is not a non-empty string
 */
export function conversationPrefix(conversationId: string): string {
  if (typeof conversationId !== 'string' || conversationId === '') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'core', message: `conversationId must be a non-empty string, got ${JSON.stringify(conversationId)}` });
  }
  const encoded = encodeURIComponent(conversationId).replace(/[!'()*~.]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${conversationKeyPrefix}${encoded}:`;
}

/**
 * The part of a store that belongs to one conversation: its archived tool results. Learned windows and
 * calibrations stay in the store itself, shared by the fleet. The engine's `conversationId` option and
 * `createRestoreHandler(store, { conversationId })` both use this, so they meet on the same keys.
 * @throws CtxkitError INVALID_ARGUMENT for an id that is not a non-empty string
 * @example
 * ```ts
 * const archive = conversationStore(store, 'support-ticket-8812');
 * await archive.getItem('r7'); // the store's 'conversations:support-ticket-8812:r7'
 * ```
 */
export function conversationStore<Id extends string>(store: StorePlugin<Id>, conversationId: string): StorePlugin<Id> {
  return scopedStore(store, conversationPrefix(conversationId));
}

/**
 * A view of a store whose every call settles within `timeoutMs`: a call still pending then rejects with
 * `CtxkitError` STORE_ERROR naming the operation and key, so a store that hangs (a network partition, a
 * stopped server) delays a step by at most that long. The call itself is not cancelled.
 * @throws CtxkitError INVALID_ARGUMENT for a timeout that is not a positive number
 * @example
 * ```ts
 * const bounded = boundedStore(store, 2_000);
 * await bounded.getItem('r7'); // the value, or STORE_ERROR 'getItem "r7" timed out after 2000 ms'
 * ```
 */
export function boundedStore<Id extends string>(store: StorePlugin<Id>, timeoutMs: number): StorePlugin<Id> {
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'core', message: `boundedStore needs a timeout in milliseconds above 0, got ${String(timeoutMs)}` });
  }
  if (!Number.isFinite(timeoutMs)) return store;
  // `keys` as the message names them: one quoted key, or a batch described by describeKeys.
  const bound = <T>(operation: string, keys: string, run: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new CtxkitError({ code: 'STORE_ERROR', source: 'core', message: `${operation} ${keys} timed out after ${timeoutMs} ms (store "${store.id}")` }));
      }, timeoutMs);
      let pending: Promise<T>;
      try {
        // A store written in plain JavaScript may answer without a promise (unstorage's drivers may too):
        // its value is taken as the answer, not read as a broken promise ("pending.then is not a function").
        pending = Promise.resolve(run());
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  return {
    specificationVersion: store.specificationVersion,
    kind: 'store',
    id: store.id,
    getItem: <T>(key: string) => bound('getItem', JSON.stringify(key), () => store.getItem<T>(key)),
    setItem: (key, value) => bound('setItem', JSON.stringify(key), () => store.setItem(key, value)),
    removeItem: (key) => bound('removeItem', JSON.stringify(key), () => store.removeItem(key)),
    ...(store.setItemIfAbsent ? { setItemIfAbsent: (key: string, value: unknown) => bound('setItemIfAbsent', JSON.stringify(key), () => store.setItemIfAbsent!(key, value)) } : {}),
    // One bound for the whole batch: it is one round trip to the store, and one step's wait.
    ...(store.getItems ? { getItems: async (keys: readonly string[]) => bound('getItems', describeKeys(batchKeys('getItems', keys)), () => store.getItems!(keys)) } : {}),
    ...(store.setItems ? { setItems: async (entries: readonly StoreEntry[]) => bound('setItems', describeKeys(entryKeys('setItems', entries)), () => store.setItems!(entries)) } : {}),
    ...(store.removeItems ? { removeItems: async (keys: readonly string[]) => bound('removeItems', describeKeys(batchKeys('removeItems', keys)), () => store.removeItems!(keys)) } : {}),
  };
}
