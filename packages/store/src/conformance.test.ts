import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@ctxkit/core';
import { runStoreConformance } from '@ctxkit/testkit';
import { createStorage } from 'unstorage';
import { fileStore } from './file-store.ts';
import { unstorageStore } from './unstorage-store.ts';

runStoreConformance('memory', () => memoryStore());
runStoreConformance('unstorage (memory driver)', () => unstorageStore(createStorage()));
runStoreConformance('file', () => fileStore(mkdtempSync(join(tmpdir(), 'ctxkit-store-'))), { runs: 100 });
