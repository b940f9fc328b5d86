import { createRegistry, type TierPlugin, type ThresholdPolicyPlugin, type TokenizerPlugin } from '@ctxkit/core';
import { describe, expectTypeOf, it } from 'vitest';
import { createContextManager } from './context-manager.ts';
import type { ContextManager } from './manager-types.ts';

// Plugins as their factories would type them.
declare const plugin: { notes: TierPlugin<'notes'>; fixed: ThresholdPolicyPlugin<'fixed'>; counter: TokenizerPlugin<'o200k'> };
declare const onDevice: boolean;

describe('createContextManager typing', () => {
  it('keeps the registered plugin types on manager.registry', () => {
    const manager = createContextManager({ model: 'm', contextWindow: 8_000, plugins: [plugin.notes, onDevice && plugin.counter] });
    expectTypeOf(manager.registry.tier('notes')).toEqualTypeOf<TierPlugin<'notes'>>();
    expectTypeOf(manager.registry.all('tier')).toEqualTypeOf<TierPlugin<'notes'>[]>();
    // @ts-expect-error 'trim' was not registered
    manager.registry.tier('trim');
    expectTypeOf(manager).toMatchTypeOf<ContextManager>();
  });

  it('checks a policy id against the registered threshold policies', () => {
    createContextManager({ model: 'm', contextWindow: 8_000, plugins: [plugin.notes, plugin.fixed], policy: 'fixed' });
    createContextManager({ model: 'm', contextWindow: 8_000, registry: createRegistry([plugin.fixed]), policy: 'fixed' });
    // @ts-expect-error no threshold policy 'budget' was registered
    createContextManager({ model: 'm', contextWindow: 8_000, plugins: [plugin.notes, plugin.fixed], policy: 'budget' });
    // @ts-expect-error no threshold policy was registered at all
    createContextManager({ model: 'm', contextWindow: 8_000, plugins: [plugin.notes], policy: 'fixed' });
  });
});
