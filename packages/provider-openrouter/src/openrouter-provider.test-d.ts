import { createRegistry, type ProviderPlugin } from '@ctxkit/core';
import type { ProviderPluginWithWindows } from '@ctxkit/provider-utils';
import { expectTypeOf, test } from 'vitest';
import { openrouterProvider } from './openrouter-provider.ts';

test('the provider id is a literal the typed registry keys on, with or without an id given', () => {
  const registry = createRegistry([openrouterProvider(), openrouterProvider({ id: 'openrouter-team', appName: 'agent' })]);
  expectTypeOf(registry.provider('openrouter')).toEqualTypeOf<ProviderPluginWithWindows<'openrouter'>>();
  expectTypeOf(registry.provider('openrouter-team').id).toEqualTypeOf<'openrouter-team'>();
  // @ts-expect-error: no provider was registered under this id
  registry.provider('openai');
});

test('it is a core ProviderPlugin, whose classifyError may also be told the model', () => {
  expectTypeOf(openrouterProvider()).toMatchTypeOf<ProviderPlugin<'openrouter'>>();
  expectTypeOf(openrouterProvider().classifyError).parameter(1).toEqualTypeOf<{ model?: string } | undefined>();
});
