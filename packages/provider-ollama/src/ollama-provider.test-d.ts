import { createRegistry } from '@ctxkit/core';
import { expectProviderTypes } from '@ctxkit/testkit';
import { test } from 'vitest';
import { type OllamaProvider, ollamaProvider } from './ollama-provider.ts';

test('a literal id the typed registry keys on, with or without an id given; a core ProviderPlugin whose classifyError may be told the model', () => {
  const registry = createRegistry([ollamaProvider(), ollamaProvider({ id: 'ollama-gpu', baseURL: 'http://10.0.0.5:11434' })]);
  expectProviderTypes<OllamaProvider<'ollama'>>()(registry, { default: 'ollama', named: 'ollama-gpu', unregistered: 'lmstudio' }, true);
});
