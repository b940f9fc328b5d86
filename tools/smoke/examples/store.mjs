// @ctxkit/store README: a file store that survives a restart, and any unstorage driver.
import { fileStore, unstorageStore } from '@ctxkit/store';
import { createStorage } from 'unstorage';
import { assert, done, temporaryFolder } from './_support.mjs';

const folder = temporaryFolder();
const store = fileStore(folder);
await store.setItem('windows:ollama:qwen3:8b', { contextWindow: 40_960, source: 'discovered' });
assert.deepEqual(await fileStore(folder).getItem('windows:ollama:qwen3:8b'), { contextWindow: 40_960, source: 'discovered' });
const shared = unstorageStore(createStorage(), { prefix: 'worker-7' });
await shared.setItem('a', { n: 1 });
assert.deepEqual(await shared.getItem('a'), { n: 1 });
assert.equal(await shared.getItem('missing'), null);
done('fileStore survives a restart; unstorageStore round-trips');
