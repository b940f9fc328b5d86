import { createRegistry, type ProviderPlugin } from '@ctxkit/core';
import { expectTypeOf, test } from 'vitest';
import { type OllamaProvider, ollamaProvider } from './ollama-provider.ts';

test('the provider id is a literal the typed registry keys on', () => {
  const registry = createRegistry([ollamaProvider(), ollamaProvider({ id: 'ollama-gpu', baseURL: 'http://10.0.0.5:11434' })]);
  expectTypeOf(registry.provider('ollama')).toEqualTypeOf<OllamaProvider<'ollama'>>();
  expectTypeOf(registry.provider('ollama-gpu').id).toEqualTypeOf<'ollama-gpu'>();
  // @ts-expect-error: no provider was registered under this id
  registry.provider('lmstudio');
});

test('it is a core ProviderPlugin, whose classifyError may also be told the model', () => {
  expectTypeOf(ollamaProvider()).toMatchTypeOf<ProviderPlugin<'ollama'>>();
  expectTypeOf(ollamaProvider().classifyError).parameter(1).toEqualTypeOf<{ model?: string } | undefined>();
});
