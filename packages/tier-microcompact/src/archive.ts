import { type ContentPart, CtxkitError, describeKeys, type StoreEntry, type StorePlugin } from '@ctxkit/core';

/** The source name in this package's error messages: `[ctxkit:tier-microcompact] ...`. */
export const source = 'tier-microcompact';

/** Handles are `r` and a number: short for the model to copy, and the store key of the original. */
export const handlePattern = /^r[1-9][0-9]*$/;

/** Where the next free handle number is kept, so handles stay unique across compactions. */
export const nextHandleKey = 'microcompact:next-handle';

/** Where the handle of an already archived result is found by its fingerprint. */
export function seenKey(fingerprintText: string): string {
  return `microcompact:seen:${fingerprintText}`;
}

/** A tool result that microcompaction archived, as the store holds it under its handle. */
export interface ArchivedToolResult {
  /** Marks the value as a ctxkit archive record. */
  type: 'ctxkit.archived-tool-result';
  version: 1;
  /** The restore handle, which is also the store key: `r7`. */
  handle: string;
  /** The id of the call this result answered. */
  toolCallId: string;
  /** The tool that produced it, when known. */
  toolName?: string;
  /** The call's arguments, the JSON text as the model sent it, when the call was in the transcript. */
  arguments?: string;
  /** The original content, unchanged: a string, or parts with their images. */
  content: string | ContentPart[];
  /** Tokens of the original's text, by the counter of the run that archived it. */
  tokens: number;
  /** The original message's id, when it had one. */
  messageId?: string;
  /** When it was archived (ISO 8601), for a host that expires old archives. */
  archivedAt: string;
}

/** True when a value read from a store is an {@link ArchivedToolResult}. */
export function isArchivedToolResult(value: unknown): value is ArchivedToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<ArchivedToolResult>;
  return (
    record.type === 'ctxkit.archived-tool-result' && typeof record.handle === 'string' && typeof record.toolCallId === 'string' && (typeof record.content === 'string' || Array.isArray(record.content))
  );
}

/** Runs a store call; a driver failure becomes STORE_ERROR naming `keys` (one key quoted, or a batch as `describeKeys` names it). */
async function guarded<T>(operation: string, keys: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (CtxkitError.isInstance(cause)) throw cause;
    throw new CtxkitError({
      code: 'STORE_ERROR',
      source,
      message: `${operation} ${keys} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  }
}

/** Reads a store key, turning a driver failure into `CtxkitError` STORE_ERROR that names the key. */
export function readKey<T>(store: StorePlugin, key: string): Promise<T | null> {
  return guarded('reading', JSON.stringify(key), () => store.getItem<T>(key));
}

/**
 * Reads several store keys, the values in key order (`null` for an absent key): one `getItems` call when
 * the store has it, otherwise one `getItem` after another, as before stores could batch.
 * @throws CtxkitError STORE_ERROR when the store fails, or its `getItems` answers anything but one value per key
 */
export async function readKeys(store: StorePlugin, keys: readonly string[]): Promise<unknown[]> {
  if (keys.length === 0) return [];
  if (!store.getItems) {
    const values: unknown[] = [];
    for (const key of keys) values.push(await readKey<unknown>(store, key));
    return values;
  }
  return guarded('reading', describeKeys(keys), async () => {
    const answer: unknown = await store.getItems!(keys);
    // Values matched to the wrong keys would point fingerprints at other results' handles: refused, not guessed.
    if (Array.isArray(answer) && answer.length === keys.length) return answer.map((value: unknown) => value ?? null);
    throw new CtxkitError({
      code: 'STORE_ERROR',
      source,
      message: `store "${store.id}" answered getItems of ${keys.length} keys with ${Array.isArray(answer) ? `${answer.length} values` : describeAnswer(answer)}: it must answer one value per key, in order`,
    });
  });
}

/** Writes a store key, turning a driver failure into `CtxkitError` STORE_ERROR that names the key. */
export function writeKey(store: StorePlugin, key: string, value: unknown): Promise<void> {
  return guarded('writing', JSON.stringify(key), () => store.setItem(key, value));
}

/**
 * Writes several store keys: one `setItems` call when the store has it, otherwise one `setItem` after another
 * in the order given, as before stores could batch.
 * @throws CtxkitError STORE_ERROR naming the keys (or, key by key, the key that failed) when the store fails
 */
export async function writeKeys(store: StorePlugin, entries: readonly StoreEntry[]): Promise<void> {
  if (entries.length === 0) return;
  if (!store.setItems) {
    for (const { key, value } of entries) await writeKey(store, key, value);
    return;
  }
  await guarded('writing', describeKeys(entries.map(({ key }) => key)), () => store.setItems!(entries));
}

/** Removes several store keys: one `removeItems` call when the store has it, otherwise one `removeItem` each, each failure its own. */
export async function removeKeys(store: StorePlugin, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  if (store.removeItems) {
    await guarded('removing', describeKeys(keys), () => store.removeItems!(keys));
    return;
  }
  const failures: unknown[] = [];
  for (const key of keys) await guarded('removing', JSON.stringify(key), () => store.removeItem(key)).catch((error: unknown) => failures.push(error));
  if (failures.length > 0) throw failures[0];
}

/**
 * Writes a store key only when it is empty (`setItemIfAbsent`), turning a driver failure into STORE_ERROR;
 * true when written.
 * @throws CtxkitError STORE_ERROR when the store answers anything but a boolean: a claim it made but did not
 * report as `true` (Redis's `SETNX` 1, `SET NX` "OK") would otherwise read as taken, and probing would claim
 * handle after handle without end
 */
export function claimKey(store: StorePlugin, key: string, value: unknown): Promise<boolean> {
  return guarded('claiming', JSON.stringify(key), async () => {
    const answer: unknown = await store.setItemIfAbsent?.(key, value);
    if (typeof answer === 'boolean') return answer;
    throw new CtxkitError({
      code: 'STORE_ERROR',
      source,
      message: `store "${store.id}" answered setItemIfAbsent(${JSON.stringify(key)}) with ${describeAnswer(answer)}: it must answer true when it wrote the key and false when the key was taken`,
    });
  });
}

function describeAnswer(answer: unknown): string {
  if (answer === undefined) return 'undefined';
  try {
    return `${typeof answer} ${JSON.stringify(answer)?.slice(0, 40) ?? String(answer)}`;
  } catch {
    return typeof answer;
  }
}

/**
 * The archived tool result under a handle, with its content parts (images included), or undefined when
 * the store has nothing of that shape there. For hosts whose provider accepts images in tool results.
 * @throws CtxkitError STORE_ERROR when the store itself fails
 * @example
 * ```ts
 * const record = await readArchivedToolResult(store, 'r7');
 * if (record) console.log(record.toolName, record.arguments, record.content);
 * ```
 */
export async function readArchivedToolResult(store: StorePlugin, handle: string): Promise<ArchivedToolResult | undefined> {
  const value = await readKey<unknown>(store, handle);
  return isArchivedToolResult(value) ? value : undefined;
}

/**
 * The text `restore_tool_result` answers with: string content byte for byte; parts joined with a
 * newline (as `textOf` does), each image standing as one line that says it was not restored.
 */
export function restoredText(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content;
  const images = content.filter((part) => part.type === 'image').length;
  let imageNumber = 0;
  const lines = content.map((part) => (part.type === 'text' ? part.text : `[image ${++imageNumber} of ${images} (${part.mediaType}) not restored: restore_tool_result returns text only]`));
  return lines.join('\n');
}
