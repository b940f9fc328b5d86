import { CtxkitError, type Message, memoryStore, type TierContext } from '@ctxkit/core';
import { approximateCount } from './approximate-count.ts';

/**
 * A tier context as the engine builds one, for tests and benchmarks of a tier: the deterministic
 * {@link approximateCount}, a fresh memory store, a signal that never aborts, no progress output.
 * Anything can be overridden. Pass the `messages` the tier will be handed, so that `currentTokens` is
 * their count (as the engine's is); without them, reading `currentTokens` throws.
 * @example const outcome = await microcompactTier().apply(messages, createTierContext({ protectedStart: messages.length - 2, messages }));
 */
export function createTierContext(overrides: Partial<TierContext> & { protectedStart: number; messages?: readonly Message[] }): TierContext {
  const { messages, ...rest } = overrides;
  const count = rest.count ?? approximateCount;
  const base = {
    targetTokens: 0,
    count,
    countText: (text: string) => Math.ceil(text.length / 4),
    store: memoryStore(),
    signal: new AbortController().signal,
    progress: () => {},
    floorTokens: count([]),
    ...rest,
  };
  if (rest.currentTokens !== undefined) return { ...base, currentTokens: rest.currentTokens };
  if (messages) return { ...base, currentTokens: count(messages) };
  return Object.defineProperty(base, 'currentTokens', {
    enumerable: true,
    get(): number {
      throw new CtxkitError({
        code: 'INVALID_ARGUMENT',
        source: '@ctxkit/testkit',
        message: 'createTierContext: the tier read context.currentTokens; pass `messages` (or `currentTokens`) to createTierContext',
      });
    },
  }) as TierContext;
}
