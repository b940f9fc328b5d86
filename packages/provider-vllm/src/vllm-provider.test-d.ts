import { createRegistry, type ProviderPlugin } from '@ctxkit/core';
import { expectTypeOf, test } from 'vitest';
import { type VllmProvider, vllmProvider } from './vllm-provider.ts';

test('the provider id is a literal the typed registry keys on', () => {
  const registry = createRegistry([vllmProvider(), vllmProvider({ id: 'vllm-gpu', baseURL: 'http://10.0.0.5:9000' })]);
  expectTypeOf(registry.provider('vllm')).toEqualTypeOf<VllmProvider<'vllm'>>();
  expectTypeOf(registry.provider('vllm-gpu').id).toEqualTypeOf<'vllm-gpu'>();
  // @ts-expect-error: no provider was registered under this id
  registry.provider('//10.0.0.5:8000:lmstudio');
});

test('it is a core ProviderPlugin, whose classifyError may also be told the model', () => {
  expectTypeOf(vllmProvider()).toMatchTypeOf<ProviderPlugin<'vllm'>>();
  expectTypeOf(vllmProvider().classifyError).parameter(1).toEqualTypeOf<{ model?: string } | undefined>();
});
