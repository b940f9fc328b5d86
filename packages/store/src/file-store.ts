import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CtxkitError, type StorePlugin } from '@ctxkit/core';
import { createStorage, hasDotSegment, normalizeKey } from 'unstorage';
import fsLiteDriver from 'unstorage/drivers/fs-lite';
import { unstorageStore } from './unstorage-store.ts';

/**
 * The file of a key, where the fs-lite driver keeps it: the key normalised as unstorage normalises it,
 * each `:` a folder. A key unstorage refuses for `setItem` (empty once normalised, or with a `.` or `..`
 * segment) is refused here too: `""` and `"."` would otherwise name the store's own folder, and a claim
 * made before the folder exists would create it as a file.
 */
function fileOf(base: string, key: string): string {
  const normalized = normalizeKey(key);
  if (!normalized || hasDotSegment(normalized)) throw new Error(`Invalid key: ${JSON.stringify(key)}. Empty keys and "." or ".." segments are refused, as setItem refuses them`);
  return join(base, normalized.replace(/:/g, '/'));
}

/** True when `file` is a folder: a key that is the prefix of other keys, which `setItem` cannot write either. */
async function isFolder(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isDirectory() === true;
}

/**
 * A store that keeps each entry as a file under `dir` (unstorage's fs-lite driver): what the command
 * line uses, and what lets a discovered window survive a restart. Its id is `file`, not the driver
 * library's name, so a report or an error names the store the host chose. `setItemIfAbsent` creates the
 * file exclusively (`O_EXCL`), so processes sharing the folder claim a key once between them.
 * @default dir '.ctxkit' in the working directory
 */
export function fileStore(dir = '.ctxkit'): StorePlugin<'file'> {
  const base = resolve(dir);
  const store = unstorageStore(createStorage({ driver: fsLiteDriver({ base }) }));
  return {
    ...store,
    id: 'file',
    // The same file and text the driver writes for setItem (values are kept as JSON text), created only
    // when absent: the file system decides which of several writers gets it.
    async setItemIfAbsent(key, value) {
      try {
        const file = fileOf(base, key);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, JSON.stringify(value), { encoding: 'utf8', flag: 'wx' });
        return true;
      } catch (cause) {
        const exists = (cause as NodeJS.ErrnoException)?.code === 'EEXIST';
        // A folder there is not a taken key (getItem reads it as empty): answering false would say it is.
        if (exists && !(await isFolder(fileOf(base, key)))) return false;
        const reason = exists ? 'the key is the folder of other keys, which setItem cannot write either' : ((cause as Error)?.message ?? String(cause));
        throw new CtxkitError({ code: 'STORE_ERROR', source: 'store', message: `setItemIfAbsent ${JSON.stringify(key)} failed: ${reason}`, cause });
      }
    },
  };
}
