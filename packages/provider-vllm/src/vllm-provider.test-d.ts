import { createRegistry } from '@ctxkit/core';
import { expectProviderTypes } from '@ctxkit/testkit';
import { test } from 'vitest';
import { type VllmProvider, vllmProvider } from './vllm-provider.ts';

test('a literal id the typed registry keys on, with or without an id given; a core ProviderPlugin whose classifyError may be told the model', () => {
  const registry = createRegistry([vllmProvider(), vllmProvider({ id: 'vllm-gpu', baseURL: 'http://10.0.0.5:9000' })]);
  expectProviderTypes<VllmProvider<'vllm'>>()(registry, { default: 'vllm', named: 'vllm-gpu', unregistered: '//10.0.0.5:8000:lmstudio' }, true);
});
