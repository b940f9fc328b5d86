import { createRegistry, type ProviderPlugin } from '@ctxkit/core';
import type { ProviderPluginWithWindows } from '@ctxkit/provider-utils';
import { expectTypeOf, test } from 'vitest';
import { anthropicProvider } from './anthropic-provider.ts';

test('the provider id is a literal the typed registry keys on, with or without an id given', () => {
  const registry = createRegistry([anthropicProvider(), anthropicProvider({ id: 'anthropic-work', apiKey: 'k' })]);
  expectTypeOf(registry.provider('anthropic')).toEqualTypeOf<ProviderPluginWithWindows<'anthropic'>>();
  expectTypeOf(registry.provider('anthropic-work').id).toEqualTypeOf<'anthropic-work'>();
  // @ts-expect-error: no provider was registered under this id
  registry.provider('openai');
});

test('it is a core ProviderPlugin, whose classifyError may also be told the model', () => {
  expectTypeOf(anthropicProvider()).toMatchTypeOf<ProviderPlugin<'anthropic'>>();
  expectTypeOf(anthropicProvider().classifyError).parameter(1).toEqualTypeOf<{ model?: string } | undefined>();
});
