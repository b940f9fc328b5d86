import { createRegistry, type ProviderPlugin } from '@ctxkit/core';
import { expectTypeOf, test } from 'vitest';
import { type LmStudioProvider, lmstudioProvider } from './lmstudio-provider.ts';

test('the provider id is a literal the typed registry keys on', () => {
  const registry = createRegistry([lmstudioProvider(), lmstudioProvider({ id: 'lmstudio-gpu', baseURL: 'http://10.0.0.5:9000' })]);
  expectTypeOf(registry.provider('lmstudio')).toEqualTypeOf<LmStudioProvider<'lmstudio'>>();
  expectTypeOf(registry.provider('lmstudio-gpu').id).toEqualTypeOf<'lmstudio-gpu'>();
  // @ts-expect-error: no provider was registered under this id
  registry.provider('//10.0.0.5:1234:ollama');
});

test('it is a core ProviderPlugin, whose classifyError may also be told the model', () => {
  expectTypeOf(lmstudioProvider()).toMatchTypeOf<ProviderPlugin<'lmstudio'>>();
  expectTypeOf(lmstudioProvider().classifyError).parameter(1).toEqualTypeOf<{ model?: string } | undefined>();
});
