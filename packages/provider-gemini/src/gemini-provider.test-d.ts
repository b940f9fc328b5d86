import { createRegistry } from '@ctxkit/core';
import type { ProviderPluginWithWindows } from '@ctxkit/provider-utils';
import { expectProviderTypes } from '@ctxkit/testkit';
import { test } from 'vitest';
import { geminiProvider } from './gemini-provider.ts';

test('a literal id the typed registry keys on, with or without an id given; a core ProviderPlugin whose classifyError may be told the model', () => {
  const registry = createRegistry([geminiProvider(), geminiProvider({ id: 'gemini-vertex', baseURL: 'https://example.test/v1beta' })]);
  expectProviderTypes<ProviderPluginWithWindows<'gemini'>>()(registry, { default: 'gemini', named: 'gemini-vertex', unregistered: 'openai' }, true);
});
