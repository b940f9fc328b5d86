import { createRegistry, type ProviderPlugin } from '@ctxkit/core';
import { expectTypeOf, test } from 'vitest';
import { type LlamaCppProvider, llamacppProvider } from './llamacpp-provider.ts';

test('the provider id is a literal the typed registry keys on', () => {
  const registry = createRegistry([llamacppProvider(), llamacppProvider({ id: 'llamacpp-gpu', baseURL: 'http://10.0.0.5:9000' })]);
  expectTypeOf(registry.provider('llamacpp')).toEqualTypeOf<LlamaCppProvider<'llamacpp'>>();
  expectTypeOf(registry.provider('llamacpp-gpu').id).toEqualTypeOf<'llamacpp-gpu'>();
  // @ts-expect-error: no provider was registered under this id
  registry.provider('//10.0.0.5:8080:vllm');
});

test('it is a core ProviderPlugin, whose classifyError may also be told the model', () => {
  expectTypeOf(llamacppProvider()).toMatchTypeOf<ProviderPlugin<'llamacpp'>>();
  expectTypeOf(llamacppProvider().classifyError).parameter(1).toEqualTypeOf<{ model?: string } | undefined>();
});
