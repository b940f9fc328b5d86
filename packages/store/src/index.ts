/**
 * Store plugins on unstorage: any unstorage driver, and a file store for the command line.
 * @packageDocumentation
 */
export { fileStore } from './file-store.ts';
export { storeKey, type UnstorageStoreOptions, unstorageStore } from './unstorage-store.ts';
