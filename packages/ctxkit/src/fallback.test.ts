import type { Message } from '@ctxkit/core';
import { ollamaProvider } from '@ctxkit/provider-ollama';
import { openaiProvider } from '@ctxkit/provider-openai';
import { requestJson, withFallback } from '@ctxkit/provider-utils';
import { closeTestServers, startTestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createCtxkit } from './preset.ts';

afterEach(closeTestServers);

const history: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the failing test.' },
];

// The first bug issue 6 names: a fallback model took the primary's window. Here the primary answers 429,
// the chain moves to a local Ollama model, and the manager's threshold follows the model now serving.
describe('a fallback chain with the context manager, against real HTTP servers', () => {
  it('takes the window of the fallback model that serves, not the primary one', async () => {
    const primaryServer = await startTestServer({
      'POST /v1/chat/completions': [429, { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' } }, { 'retry-after': '3600' }],
    });
    const ollamaServer = await startTestServer({
      '/api/ps': [200, { models: [{ name: 'qwen3:8b', model: 'qwen3:8b', context_length: 32_768 }] }],
      'POST /api/show': [200, { model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40_960 }, parameters: '' }],
      'POST /api/chat': [200, { model: 'qwen3:8b', message: { role: 'assistant', content: 'done' }, done: true, prompt_eval_count: 42 }],
    });
    const primary = openaiProvider({ baseURL: `${primaryServer.url}/v1`, apiKey: 'test-key', windows: { 'gpt-4o': { contextWindow: 128_000, maxOutputTokens: 16_384 } } });
    const local = ollamaProvider({ baseURL: ollamaServer.url });
    const manager = createCtxkit({ model: 'openai:gpt-4o', plugins: [primary, local] });
    const thresholds: Record<string, number> = {};
    const switches: string[] = [];
    const chain = withFallback(
      [
        { provider: primary, model: 'gpt-4o' },
        { provider: local, model: 'qwen3:8b' },
      ],
      { onSwitch: ({ to }) => switches.push(to.model) },
    );

    const { target } = await chain.run(async ({ provider, model }) => {
      const { messages, report } = await manager.prepare(history, { model: `${provider.id}:${model}` });
      thresholds[model] = report.threshold;
      const url = provider.id === 'openai' ? `${primaryServer.url}/v1/chat/completions` : `${ollamaServer.url}/api/chat`;
      return requestJson(url, { provider: provider.id, method: 'POST', body: { model, messages } });
    });

    expect(target.model).toBe('qwen3:8b');
    expect(switches).toEqual(['qwen3:8b']);
    // gpt-4o: half of 128,000. qwen3:8b as loaded (/api/ps: 32,768): half of it, not the primary's 64,000.
    expect(thresholds).toEqual({ 'gpt-4o': 64_000, 'qwen3:8b': 16_384 });
    expect((await manager.limitsFor('ollama:qwen3:8b')).limits).toMatchObject({ contextWindow: 32_768 });
  });
});
