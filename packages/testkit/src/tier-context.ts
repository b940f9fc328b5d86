import { memoryStore, type TierContext } from '@ctxkit/core';
import { approximateCount } from './approximate-count.ts';

/**
 * A tier context as the engine builds one, for tests and benchmarks of a tier: the deterministic
 * {@link approximateCount}, a fresh memory store, a signal that never aborts, no progress output.
 * Anything can be overridden.
 * @example const outcome = await microcompactTier().apply(messages, createTierContext({ protectedStart: messages.length - 2 }));
 */
export function createTierContext(overrides: Partial<TierContext> & { protectedStart: number }): TierContext {
  return {
    targetTokens: 0,
    count: approximateCount,
    countText: (text) => Math.ceil(text.length / 4),
    store: memoryStore(),
    signal: new AbortController().signal,
    progress: () => {},
    ...overrides,
  };
}
