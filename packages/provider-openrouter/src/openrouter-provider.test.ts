import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@ctxkit/core';
import { ProviderCallError, readJsonEvents, request, withFallback } from '@ctxkit/provider-utils';
import { fileStore } from '@ctxkit/store';
import { compactionThreshold } from '@ctxkit/threshold';
import { closeTestServers, fixtureReader, refusedURL, runProviderConformance, sendJson, sendStream, startTestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { openrouterProvider } from './openrouter-provider.ts';
import { openrouterUsage } from './openrouter-usage.ts';

const fixtures = fixtureReader(import.meta.url);
const fixture = fixtures.text;
const json = (name: string) => fixtures.json<Record<string, unknown>>(name);

afterEach(closeTestServers);

const messages: Message[] = [
  { role: 'user', content: 'Speed up the test suite' },
  { role: 'assistant', content: 'Timing the tests.' },
];

/** An OpenRouter-like server: the models list, and chat completions answering per model. */
function openrouterLike(chat: (model: string) => [number, unknown]) {
  return startTestServer((request, response) => {
    if (request.path === '/api/v1/models') return sendJson(response, 200, json('models.json'));
    const [status, body] = chat((request.json as { model: string }).model);
    return sendJson(response, status, body as object);
  });
}

describe('openrouterProvider windows', () => {
  it('prefers the top provider window, falls back to the model figure, and reads the list once', async () => {
    const server = await openrouterLike(() => [200, {}]);
    const openrouter = openrouterProvider({ apiKey: 'or-key', baseURL: `${server.url}/api/v1`, appName: 'ctxkit-tests' });
    expect(await openrouter.contextWindow('anthropic/claude-sonnet-4')).toEqual({ contextWindow: 200_000, maxOutputTokens: 64_000, source: 'discovered' });
    expect(await openrouter.contextWindow('meta-llama/llama-3.1-8b-instruct')).toEqual({ contextWindow: 16_384, source: 'discovered' });
    expect(await openrouter.contextWindow('qwen/qwen3-coder-480b-a35b-07-25')).toMatchObject({ contextWindow: 262_144, source: 'discovered' });
    expect(server.requests.filter((entry) => entry.path === '/api/v1/models')).toHaveLength(1);
    expect(server.requests[0]?.headers).toMatchObject({ authorization: 'Bearer or-key', 'x-title': 'ctxkit-tests' });
  });

  it('answers from the catalog, then the default, for models the list lacks or when it is unreachable', async () => {
    const server = await openrouterLike(() => [200, {}]);
    expect(await openrouterProvider({ apiKey: 'k', baseURL: `${server.url}/api/v1` }).contextWindow('openai/gpt-4o-mini')).toMatchObject({ contextWindow: 128_000, source: 'catalog' });
    const down = openrouterProvider({ apiKey: 'k', baseURL: `${await refusedURL()}/api/v1` });
    expect(await down.contextWindow('anthropic/claude-sonnet-4')).toMatchObject({ source: 'catalog' });
    expect(await down.contextWindow('someone/new-model')).toEqual({ contextWindow: 32_768, source: 'default' });
  });
});

runProviderConformance({
  name: 'openrouterProvider',
  create: (settings) => openrouterProvider({ apiKey: 'k', ...settings }),
  apiPath: '/api/v1',
  model: 'meta-llama/llama-3.1-8b-instruct',
  serve: () => openrouterLike(() => [200, {}]),
  discovered: { contextWindow: 16_384, source: 'discovered' },
  undiscovered: { contextWindow: 32_768, source: 'default' },
  cutShort: { discovery: '{"data":[{"id":"meta-llama/llama-3.1-8b-instruct","context_length":', answer: 'upstream connect error or disconnect/reset before headers' },
  callError: ProviderCallError,
  fileStore,
});

describe('openrouterProvider usage and stream errors', () => {
  it('reads usage like Chat Completions, from a response and from a real stream', async () => {
    expect(openrouterUsage(json('chat-completion.json'))).toEqual({ inputTokens: 8_213, cachedInputTokens: 7_680, outputTokens: 21 });
    const server = await startTestServer((_request, response) => sendStream(response, fixture('stream.sse').split(/(?<=\n\n)/)));
    const open = await request(`${server.url}/api/v1/chat/completions`, { provider: 'openrouter', body: { stream: true } });
    const chunks: unknown[] = [];
    for await (const event of readJsonEvents(open.body, { provider: 'openrouter' })) chunks.push(event.data);
    expect(chunks).toHaveLength(3);
    expect(openrouterUsage(chunks)).toEqual({ inputTokens: 5_120, cachedInputTokens: 4_096, outputTokens: 2 });
  });

  it('finds an overflow inside a 200 stream', async () => {
    const server = await startTestServer((_request, response) => sendStream(response, fixture('stream-overflow.sse').split(/(?<=\n\n)/)));
    const open = await request(`${server.url}/api/v1/chat/completions`, { provider: 'openrouter', body: { stream: true } });
    const chunks: { error?: unknown }[] = [];
    for await (const event of readJsonEvents<{ error?: unknown }>(open.body, { provider: 'openrouter' })) chunks.push(event.data);
    const errorChunk = chunks.find((chunk) => chunk.error);
    expect(openrouterProvider().classifyError(errorChunk)).toMatchObject({ kind: 'context_overflow', limitTokens: 131_072, reportedTokens: 140_211, fallback: false });
  });
});

describe('openrouterProvider summarizer and errors', () => {
  it('learns that an upstream serves less than advertised from an overflow wrapped in a 502', async () => {
    const server = await openrouterLike(() => [502, json('error-502-wrapped.json')]);
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-openrouter-'));
    const openrouter = openrouterProvider({ apiKey: 'k', baseURL: `${server.url}/api/v1`, store: fileStore(dir) });
    expect(await openrouter.contextWindow('qwen/qwen3-coder')).toMatchObject({ contextWindow: 262_144, source: 'discovered' });
    const error = await openrouter
      .summarizer('qwen/qwen3-coder')
      .summarize({ messages, instructions: 'x' })
      .then(
        () => expect.unreachable('the call resolved; it must reject'),
        (caught: unknown) => caught,
      );
    expect(openrouter.classifyError(error)).toMatchObject({ kind: 'context_overflow', status: 502, limitTokens: 16_000, reportedTokens: 17_165, fallback: false });
    const restarted = openrouterProvider({ apiKey: 'k', baseURL: `${server.url}/api/v1`, store: fileStore(dir) });
    expect(await restarted.contextWindow('qwen/qwen3-coder')).toEqual({ contextWindow: 16_000, maxOutputTokens: 16_000, source: 'learned' });
    // the same advertised window on refresh does not undo the lesson
    expect((await restarted.windows.refresh('qwen/qwen3-coder'))?.source).toBe('learned');
  });

  it('sends the summary request as chat completions', async () => {
    const server = await openrouterLike(() => [200, json('chat-completion.json')]);
    const summary = await openrouterProvider({ apiKey: 'k', baseURL: `${server.url}/api/v1` })
      .summarizer('qwen/qwen3-coder')
      .summarize({ messages, instructions: 'Template.', maxOutputTokens: 600 });
    expect(summary).toBe('## Task\nSpeed up the test suite.\n## Next steps\nRun the slow tests in parallel.');
    const body = server.requests.find((entry) => entry.path === '/api/v1/chat/completions')?.json;
    expect(body).toMatchObject({ model: 'qwen/qwen3-coder', max_tokens: 600, messages: [{ role: 'system', content: 'Template.' }, { role: 'user' }] });
  });

  it('classifies an upstream rate limit and no credits', async () => {
    const openrouter = openrouterProvider();
    const call = async (url: string) =>
      openrouterProvider({ apiKey: 'k', baseURL: `${url}/api/v1`, discovery: false })
        .summarizer('qwen/qwen3-coder:free')
        .summarize({ messages, instructions: 'x' })
        .then(
          () => expect.unreachable('the call resolved; it must reject'),
          (caught: unknown) => caught,
        );
    const limited = await openrouterLike(() => [429, json('error-rate-limit.json')]);
    expect(openrouter.classifyError(await call(limited.url))).toMatchObject({ kind: 'rate_limit', fallback: true, retryable: true });
    const broke = await openrouterLike(() => [402, json('error-credits.json')]);
    expect(openrouter.classifyError(await call(broke.url))).toMatchObject({ kind: 'rate_limit', fallback: true, retryable: false });
  });

  it('a fallback to a model with another window changes the threshold', async () => {
    const server = await openrouterLike((model) => (model === 'anthropic/claude-sonnet-4' ? [429, json('error-rate-limit.json')] : [200, json('chat-completion.json')]));
    const openrouter = openrouterProvider({ apiKey: 'k', baseURL: `${server.url}/api/v1` });
    const chain = withFallback([
      { provider: openrouter, model: 'anthropic/claude-sonnet-4' },
      { provider: openrouter, model: 'meta-llama/llama-3.1-8b-instruct' },
    ]);
    const thresholds: number[] = [];
    const { target } = await chain.run(async ({ provider, model, contextWindow }) => {
      const limits = await contextWindow();
      thresholds.push(compactionThreshold(limits.contextWindow, limits.maxOutputTokens ?? 0));
      return provider.summarizer?.(model).summarize({ messages, instructions: 'x' });
    });
    expect(target.model).toBe('meta-llama/llama-3.1-8b-instruct');
    expect(thresholds).toEqual([100_000, 8_192]);
  });
});
