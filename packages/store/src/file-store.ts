import type { StorePlugin } from '@ctxkit/core';
import { createStorage } from 'unstorage';
import fsLiteDriver from 'unstorage/drivers/fs-lite';
import { unstorageStore } from './unstorage-store.ts';

/**
 * A store that keeps each entry as a file under `dir` (unstorage's fs-lite driver): what the command
 * line uses, and what lets a discovered window survive a restart. Its id is `file`, not the driver
 * library's name, so a report or an error names the store the host chose.
 * @default dir '.ctxkit' in the working directory
 */
export function fileStore(dir = '.ctxkit'): StorePlugin<'file'> {
  return { ...unstorageStore(createStorage({ driver: fsLiteDriver({ base: dir }) })), id: 'file' };
}
