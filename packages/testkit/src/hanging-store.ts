import type { StorePlugin } from '@ctxkit/core';

/**
 * A store whose calls never settle, as a store behind a dead connection behaves: for tests of the
 * timeouts and fallbacks around a store (`storeTimeoutMs`, `boundedStore`).
 * @example createContextManager({ model: 'm', contextWindow: 8_000, storeTimeoutMs: 50, plugins: [microcompactTier(), hangingStore()] });
 */
export function hangingStore<const Id extends string = 'hanging'>(id: Id = 'hanging' as Id): StorePlugin<Id> {
  const never = () => new Promise<never>(() => {});
  return { specificationVersion: 'v1', kind: 'store', id, getItem: never, setItem: never, removeItem: never };
}
