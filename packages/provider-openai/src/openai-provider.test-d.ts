import { createRegistry, type ProviderPlugin } from '@ctxkit/core';
import type { ProviderPluginWithWindows } from '@ctxkit/provider-utils';
import { expectTypeOf, test } from 'vitest';
import { openaiProvider } from './openai-provider.ts';

test('the provider id is a literal the typed registry keys on, with or without an id given', () => {
  const registry = createRegistry([openaiProvider(), openaiProvider({ id: 'deepseek', baseURL: 'https://api.deepseek.com/v1' })]);
  expectTypeOf(registry.provider('openai')).toEqualTypeOf<ProviderPluginWithWindows<'openai'>>();
  expectTypeOf(registry.provider('deepseek').id).toEqualTypeOf<'deepseek'>();
  // @ts-expect-error: no provider was registered under this id
  registry.provider('anthropic');
});

test('it is a core ProviderPlugin, whose classifyError may also be told the model', () => {
  expectTypeOf(openaiProvider()).toMatchTypeOf<ProviderPlugin<'openai'>>();
  expectTypeOf(openaiProvider().classifyError).parameter(1).toEqualTypeOf<{ model?: string } | undefined>();
});
