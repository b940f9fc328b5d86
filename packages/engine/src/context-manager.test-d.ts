import { createRegistry, type TierPlugin, type ThresholdPolicyPlugin, type TokenizerPlugin } from '@ctxkit/core';
import { describe, expectTypeOf, it } from 'vitest';
import { createContextManager } from './context-manager.ts';
import type { ContextManager, RecoverResult } from './manager-types.ts';

// Plugins as their factories would type them.
declare const plugin: { notes: TierPlugin<'notes'>; fixed: ThresholdPolicyPlugin<'fixed'>; counter: TokenizerPlugin<'o200k'> };
declare const onDevice: boolean;
declare const anyManager: ContextManager;

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

describe('recover typing', () => {
  it('narrows RecoverResult on action: a field of one action is a compile error before narrowing (the README example relies on it)', async () => {
    const result = await anyManager.recover([], new Error('x'));
    expectTypeOf(result).toEqualTypeOf<RecoverResult>();
    // @ts-expect-error maxOutputTokens exists only when action is 'lower-output'
    void result.maxOutputTokens;
    if (result.action === 'lower-output') expectTypeOf(result.maxOutputTokens).toEqualTypeOf<number>();
  });
});
