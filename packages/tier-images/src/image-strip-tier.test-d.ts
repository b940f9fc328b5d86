import { createRegistry, type TierPlugin } from '@ctxkit/core';
import { describe, expectTypeOf, it } from 'vitest';
import { imageStripTier } from './image-strip-tier.ts';

describe('image stripping typing', () => {
  it('registers under its literal id', () => {
    const registry = createRegistry([imageStripTier({ keepRecent: 1 })]);
    expectTypeOf(registry.tier('images')).toEqualTypeOf<TierPlugin<'images'>>();
    // @ts-expect-error only 'images' was registered
    registry.tier('microcompact');
  });
});
