import { createRegistry, type ProviderPlugin } from '@ctxkit/core';
import type { ProviderPluginWithWindows } from '@ctxkit/provider-utils';
import { expectTypeOf, test } from 'vitest';
import { geminiProvider } from './gemini-provider.ts';

test('the provider id is a literal the typed registry keys on, with or without an id given', () => {
  const registry = createRegistry([geminiProvider(), geminiProvider({ id: 'gemini-vertex', baseURL: 'https://example.test/v1beta' })]);
  expectTypeOf(registry.provider('gemini')).toEqualTypeOf<ProviderPluginWithWindows<'gemini'>>();
  expectTypeOf(registry.provider('gemini-vertex').id).toEqualTypeOf<'gemini-vertex'>();
  // @ts-expect-error: no provider was registered under this id
  registry.provider('openai');
});

test('it is a core ProviderPlugin, whose classifyError may also be told the model', () => {
  expectTypeOf(geminiProvider()).toMatchTypeOf<ProviderPlugin<'gemini'>>();
  expectTypeOf(geminiProvider().classifyError).parameter(1).toEqualTypeOf<{ model?: string } | undefined>();
});
