import { createRegistry } from '@ctxkit/core';
import { expectProviderTypes } from '@ctxkit/testkit';
import { test } from 'vitest';
import { type LmStudioProvider, lmstudioProvider } from './lmstudio-provider.ts';

test('a literal id the typed registry keys on, with or without an id given; a core ProviderPlugin whose classifyError may be told the model', () => {
  const registry = createRegistry([lmstudioProvider(), lmstudioProvider({ id: 'lmstudio-gpu', baseURL: 'http://10.0.0.5:9000' })]);
  expectProviderTypes<LmStudioProvider<'lmstudio'>>()(registry, { default: 'lmstudio', named: 'lmstudio-gpu', unregistered: '//10.0.0.5:1234:ollama' }, true);
});
