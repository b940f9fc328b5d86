import { createRegistry } from '@ctxkit/core';
import type { ProviderPluginWithWindows } from '@ctxkit/provider-utils';
import { expectProviderTypes } from '@ctxkit/testkit';
import { test } from 'vitest';
import { openaiProvider } from './openai-provider.ts';

test('a literal id the typed registry keys on, with or without an id given; a core ProviderPlugin whose classifyError may be told the model', () => {
  const registry = createRegistry([openaiProvider(), openaiProvider({ id: 'deepseek', baseURL: 'https://api.deepseek.com/v1' })]);
  expectProviderTypes<ProviderPluginWithWindows<'openai'>>()(registry, { default: 'openai', named: 'deepseek', unregistered: 'anthropic' }, true);
});
