import { createRegistry } from '@ctxkit/core';
import type { ProviderPluginWithWindows } from '@ctxkit/provider-utils';
import { expectProviderTypes } from '@ctxkit/testkit';
import { test } from 'vitest';
import { openrouterProvider } from './openrouter-provider.ts';

test('a literal id the typed registry keys on, with or without an id given; a core ProviderPlugin whose classifyError may be told the model', () => {
  const registry = createRegistry([openrouterProvider(), openrouterProvider({ id: 'openrouter-team', appName: 'agent' })]);
  expectProviderTypes<ProviderPluginWithWindows<'openrouter'>>()(registry, { default: 'openrouter', named: 'openrouter-team', unregistered: 'openai' }, true);
});
