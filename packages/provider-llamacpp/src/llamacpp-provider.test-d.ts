import { createRegistry } from '@ctxkit/core';
import { expectProviderTypes } from '@ctxkit/testkit';
import { test } from 'vitest';
import { type LlamaCppProvider, llamacppProvider } from './llamacpp-provider.ts';

test('a literal id the typed registry keys on, with or without an id given; a core ProviderPlugin whose classifyError may be told the model', () => {
  const registry = createRegistry([llamacppProvider(), llamacppProvider({ id: 'llamacpp-gpu', baseURL: 'http://10.0.0.5:9000' })]);
  expectProviderTypes<LlamaCppProvider<'llamacpp'>>()(registry, { default: 'llamacpp', named: 'llamacpp-gpu', unregistered: '//10.0.0.5:8080:vllm' }, true);
});
