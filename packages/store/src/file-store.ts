import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CtxkitError, type StorePlugin } from '@ctxkit/core';
import { createStorage } from 'unstorage';
import fsLiteDriver from 'unstorage/drivers/fs-lite';
import { storeKey, unstorageStore } from './unstorage-store.ts';

/**
 * The file of a key, where the fs-lite driver keeps it: the key normalised as unstorage normalises it,
 * each `:` a folder. A key unstorage refuses for `setItem` (empty once normalised, or with a `.` or `..`
 * segment) is refused here too: `""` and `"."` would otherwise name the store's own folder, and a claim
 * made before the folder exists would create it as a file.
 */
function fileOf(base: string, key: string): string {
  return join(base, storeKey(key).replace(/:/g, '/'));
}

/**
 * Creates `file` with `text` only when nothing is there (`O_EXCL`); false when a file is. Only the create's
 * own EEXIST means taken: a folder there (a key that is the prefix of other keys) or a file where a parent
 * folder should be is a failure, as it is for `setItem`, since `getItem` reads such a key as empty.
 */
async function createExclusive(file: string, text: string): Promise<boolean> {
  await mkdir(dirname(file), { recursive: true });
  try {
    await writeFile(file, text, { encoding: 'utf8', flag: 'wx' });
    return true;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException)?.code !== 'EEXIST') throw cause;
    if ((await stat(file)).isDirectory()) throw new Error('the key is the folder of other keys, which setItem cannot write either');
    return false;
  }
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
        return await createExclusive(fileOf(base, key), JSON.stringify(value));
      } catch (cause) {
        throw new CtxkitError({ code: 'STORE_ERROR', source: 'store', message: `setItemIfAbsent ${JSON.stringify(key)} failed: ${(cause as Error)?.message ?? String(cause)}`, cause });
      }
    },
  };
}
