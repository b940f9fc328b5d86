import { createRegistry } from '@ctxkit/core';
import type { ProviderPluginWithWindows } from '@ctxkit/provider-utils';
import { expectProviderTypes } from '@ctxkit/testkit';
import { test } from 'vitest';
import { anthropicProvider } from './anthropic-provider.ts';

test('a literal id the typed registry keys on, with or without an id given; a core ProviderPlugin whose classifyError may be told the model', () => {
  const registry = createRegistry([anthropicProvider(), anthropicProvider({ id: 'anthropic-work', apiKey: 'k' })]);
  expectProviderTypes<ProviderPluginWithWindows<'anthropic'>>()(registry, { default: 'anthropic', named: 'anthropic-work', unregistered: 'openai' }, true);
});
