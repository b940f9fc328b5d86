import { boundedStore, CtxkitError, conversationStore, type StorePlugin } from '@ctxkit/core';

/** The manager options that decide where tiers archive. */
export interface ArchiveStoreOptions {
  /** The conversation whose archive the tiers write and read. */
  conversationId?: string | undefined;
  /** Milliseconds one store call may take. */
  storeTimeoutMs?: number | undefined;
}

/** How long one store call may take before the tier that made it gives up for this step. */
export const defaultStoreTimeoutMs = 2_000;

/**
 * The store the tiers get in their context: the registered store, narrowed to one conversation's
 * archive when a `conversationId` is set (learned windows and calibrations stay in the store itself,
 * fleet-wide), with every call bounded by `storeTimeoutMs` so an unreachable store cannot stall a step.
 * @throws CtxkitError INVALID_ARGUMENT for an empty conversationId or a bad timeout
 */
export function archiveStore(store: StorePlugin, options: ArchiveStoreOptions): StorePlugin {
  const { conversationId, storeTimeoutMs = defaultStoreTimeoutMs } = options;
  if (conversationId !== undefined && (typeof conversationId !== 'string' || conversationId === '')) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'engine', message: `createContextManager option conversationId must be a non-empty string, got ${JSON.stringify(conversationId)}` });
  }
  if (!(typeof storeTimeoutMs === 'number' && storeTimeoutMs > 0)) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'engine',
      message: `createContextManager option storeTimeoutMs must be a number of milliseconds above 0, got ${String(storeTimeoutMs)}`,
    });
  }
  const bounded = boundedStore(store, storeTimeoutMs);
  return conversationId === undefined ? bounded : conversationStore(bounded, conversationId);
}
