import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@ctxkit/core';
import { classifyError, ProviderCallError, readJsonEvents, request, withFallback } from '@ctxkit/provider-utils';
import { fileStore } from '@ctxkit/store';
import { compactionThreshold } from '@ctxkit/threshold';
import { closeTestServers, fixtureReader, refusedURL, runProviderConformance, sendJson, sendStream, startTestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiProvider } from './openai-provider.ts';
import { openaiUsage } from './openai-usage.ts';

const fixtures = fixtureReader(import.meta.url);
const fixture = fixtures.text;
const json = (name: string) => fixtures.json<unknown>(name);

afterEach(closeTestServers);

const messages: Message[] = [
  { role: 'user', content: 'Fix the failing date parser test' },
  { role: 'assistant', content: 'Reading the file.', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"utils/date.ts"}' }] },
  { role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: 'export function parse() {}' },
];

/** An OpenAI-compatible host (Together, say): a models list with windows, nothing else. */
function compatibleHost() {
  return startTestServer((request, response) => {
    if (request.path === '/v1/models') sendJson(response, 200, { object: 'list', data: [{ id: 'qwen3-coder', object: 'model', context_length: 65_536, max_completion_tokens: 8_192 }] });
    else sendJson(response, 404, { error: { message: 'not found' } });
  });
}

describe('openaiProvider windows', () => {
  it('takes windows of OpenAI and DeepSeek models from the catalog, per model, snapshots included', async () => {
    const openai = openaiProvider({ apiKey: 'k' });
    expect(await openai.contextWindow('gpt-4o-2024-08-06')).toEqual({ contextWindow: 128_000, maxOutputTokens: 16_384, source: 'catalog' });
    expect(await openai.contextWindow('gpt-4o-mini')).toMatchObject({ contextWindow: 128_000, source: 'catalog' });
    const deepseek = await openai.contextWindow('deepseek-chat');
    expect(deepseek.source).toBe('catalog');
    expect(deepseek.contextWindow).toBeGreaterThan(32_768);
  });

  it('gives unknown models a conservative default, never 1M, and lets configured windows win', async () => {
    const openai = openaiProvider({ apiKey: 'k', windows: { 'gpt-4o': { contextWindow: 64_000, maxOutputTokens: 4_096 } } });
    expect(await openai.contextWindow('ft:my-private-model')).toEqual({ contextWindow: 32_768, source: 'default' });
    expect(await openai.contextWindow('gpt-4o')).toEqual({ contextWindow: 64_000, maxOutputTokens: 4_096, source: 'configured' });
  });

  it('discovers windows from an OpenAI-compatible models list, sending the API key', async () => {
    const server = await compatibleHost();
    const host = openaiProvider({ id: 'together', apiKey: 'k', baseURL: `${server.url}/v1` });
    expect(await host.contextWindow('qwen3-coder')).toEqual({ contextWindow: 65_536, maxOutputTokens: 8_192, source: 'discovered' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k');
  });

  it('falls back to the catalog, then the default, when discovery is unreachable', async () => {
    const down = await refusedURL();
    const host = openaiProvider({ apiKey: 'k', baseURL: `${down}/v1`, discovery: true });
    expect(await host.contextWindow('gpt-4o')).toMatchObject({ contextWindow: 128_000, source: 'catalog' });
    expect(await host.contextWindow('private-model')).toMatchObject({ contextWindow: 32_768, source: 'default' });
  });

  it('asks nothing of api.openai.com for windows (it reports none)', async () => {
    const openai = openaiProvider({
      apiKey: 'k',
      fetch: async () => Promise.reject(new Error('no network call expected')),
      onError: (error) => {
        throw error;
      },
    });
    expect(await openai.contextWindow('gpt-4.1')).toMatchObject({ source: 'catalog' });
  });
});

runProviderConformance({
  name: 'openaiProvider (an OpenAI-compatible host)',
  create: (settings) => openaiProvider({ id: 'together', apiKey: 'k', refreshIntervalMs: 0, ...settings }),
  apiPath: '/v1',
  model: 'qwen3-coder',
  serve: compatibleHost,
  discovered: { contextWindow: 65_536, maxOutputTokens: 8_192, source: 'discovered' },
  undiscovered: { contextWindow: 32_768, source: 'default' },
  cutShort: { discovery: '{"object":"list","data":[{"id":"qwen3-coder",', answer: '{"id":"chatcmpl-1","choices":[{"message":' },
  callError: ProviderCallError,
  fileStore,
  refreshesOnEveryCall: true,
});

describe('openaiProvider usage', () => {
  it('reads Chat Completions usage with cached tokens', () => {
    expect(openaiUsage(json('chat-completion.json'))).toEqual({ inputTokens: 1_117, cachedInputTokens: 1_024, outputTokens: 46 });
    expect(openaiUsage(json('deepseek-chat.json'))).toEqual({ inputTokens: 1_210, cachedInputTokens: 1_152, outputTokens: 12 });
  });

  it('reads Responses usage, and the response.completed event', () => {
    expect(openaiUsage(json('responses.json'))).toEqual({ inputTokens: 36, cachedInputTokens: 0, outputTokens: 87 });
  });

  it('reads the usage of a streamed chat (include_usage) from a real SSE stream', async () => {
    const server = await startTestServer((_request, response) => sendStream(response, fixture('chat-completion-stream.sse').split(/(?<=\n\n)/)));
    const open = await request(`${server.url}/v1/chat/completions`, { provider: 'openai', body: { stream: true, stream_options: { include_usage: true } } });
    const chunks: unknown[] = [];
    for await (const event of readJsonEvents(open.body, { provider: 'openai' })) chunks.push(event.data);
    expect(chunks).toHaveLength(4);
    expect(openaiUsage(chunks[0])).toBeUndefined();
    expect(openaiUsage(chunks)).toEqual({ inputTokens: 2_006, cachedInputTokens: 1_920, outputTokens: 2 });
    expect(openaiProvider().usage(chunks.at(-1))).toEqual({ inputTokens: 2_006, cachedInputTokens: 1_920, outputTokens: 2 });
  });

  it('reads the usage of a streamed Responses call from its response.completed event', async () => {
    const server = await startTestServer((_request, response) => sendStream(response, fixture('responses-stream.sse').split(/(?<=\n\n)/)));
    const open = await request(`${server.url}/v1/responses`, { provider: 'openai', body: { stream: true } });
    const events: { event?: string; data: unknown }[] = [];
    for await (const event of readJsonEvents(open.body, { provider: 'openai' })) events.push(event);
    expect(events.map((event) => event.event)).toEqual(['response.created', 'response.output_text.delta', 'response.output_text.done', 'response.completed']);
    expect(openaiUsage(events[0]?.data)).toBeUndefined();
    expect(openaiUsage(events)).toEqual({ inputTokens: 5_137, cachedInputTokens: 4_864, outputTokens: 4 });
  });

  it('returns undefined for anything without usage', () => {
    const openai = openaiProvider();
    expect(openai.usage(undefined)).toBeUndefined();
    expect(openai.usage({ choices: [] })).toBeUndefined();
    expect(openai.usage('text')).toBeUndefined();
  });
});

describe('openaiProvider summarizer', () => {
  it('calls chat completions with the instructions as system prompt and the messages as data', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, json('chat-completion.json')));
    const openai = openaiProvider({ apiKey: 'sk-test', baseURL: `${server.url}/v1` });
    const summary = await openai.summarizer('gpt-4o').summarize({ messages, instructions: 'Write the structured summary.', maxOutputTokens: 800 });
    expect(summary).toMatch(/^## Task\nFix the failing date parser test/);
    const sent = server.requests.find((request) => request.path === '/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    const body = sent?.json as { model: string; messages: { role: string; content: string }[]; max_tokens: number };
    expect(body.model).toBe('gpt-4o');
    expect(body.max_tokens).toBe(800);
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(body.messages[0]?.content).toBe('Write the structured summary.');
    expect(body.messages[1]?.content).toContain('tool call read_file (call_1): {"path":"utils/date.ts"}');
  });

  it('can use the Responses API', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, json('responses.json')));
    const openai = openaiProvider({ apiKey: 'k', baseURL: `${server.url}/v1`, summaryApi: 'responses', maxTokensField: 'max_completion_tokens' });
    expect(await openai.summarizer('gpt-4.1').summarize({ messages, instructions: 'Summarize.', maxOutputTokens: 300 })).toBe('## Task\nRename the config loader.\n## Next steps\nUpdate the imports.');
    const body = server.requests.find((request) => request.path === '/v1/responses')?.json;
    expect(body).toMatchObject({ model: 'gpt-4.1', instructions: 'Summarize.', max_output_tokens: 300 });
  });

  it('learns the real window from an overflow of its own call, and keeps it across a restart', async () => {
    const server = await startTestServer((request, response) => (request.path === '/v1/models' ? sendJson(response, 404, {}) : sendJson(response, 400, fixture('error-context-length.json'))));
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-openai-'));
    const openai = openaiProvider({ apiKey: 'k', baseURL: `${server.url}/v1`, store: fileStore(dir) });
    expect(await openai.contextWindow('gpt-4.1')).toMatchObject({ source: 'catalog' });
    const error = await openai
      .summarizer('gpt-4.1')
      .summarize({ messages, instructions: 'x' })
      .then(
        () => expect.unreachable('the call resolved; it must reject'),
        (caught: unknown) => caught,
      );
    expect(openai.classifyError(error)).toMatchObject({ kind: 'context_overflow', limitTokens: 128_000, reportedTokens: 131_072, fallback: false, provider: 'openai' });
    expect(await openaiProvider({ apiKey: 'k', baseURL: `${server.url}/v1`, store: fileStore(dir) }).contextWindow('gpt-4.1')).toMatchObject({ contextWindow: 128_000, source: 'learned' });
  });

  it('turns a rate limit into a typed, classified error', async () => {
    const limited = await startTestServer((_request, response) => sendJson(response, 429, fixture('error-rate-limit.json'), { 'retry-after': '3' }));
    const limitError = await openaiProvider({ apiKey: 'k', baseURL: `${limited.url}/v1` })
      .summarizer('gpt-4o')
      .summarize({ messages, instructions: 'x' })
      .then(
        () => expect.unreachable('the call resolved; it must reject'),
        (caught: unknown) => caught,
      );
    expect(classifyError(limitError)).toMatchObject({ kind: 'rate_limit', retryAfterMs: 3_000, limitTokens: 30_000, fallback: true, retryable: true });
  });

  it('says where the API key is missing', async () => {
    const previous = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      await expect(openaiProvider({ baseURL: 'http://127.0.0.1:9/v1' }).summarizer('gpt-4o').summarize({ messages, instructions: 'x' })).rejects.toThrow(
        '[ctxkit:openai] no API key: pass apiKey or set OPENAI_API_KEY',
      );
    } finally {
      if (previous !== undefined) process.env.OPENAI_API_KEY = previous;
    }
  });
});

describe('openaiProvider in a fallback chain', () => {
  it('a fallback model with a different window changes the threshold', async () => {
    const primaryServer = await startTestServer((_request, response) =>
      sendJson(response, 429, fixture('error-rate-limit.json').replace('Please try again in 2.4s.', 'You exceeded your daily quota: requests per day (RPD).')),
    );
    const backupServer = await startTestServer((request, response) => {
      if (request.path === '/v1/models') sendJson(response, 200, { data: [{ id: 'local-coder', context_length: 16_384 }] });
      else sendJson(response, 200, json('deepseek-chat.json'));
    });
    const primary = openaiProvider({ apiKey: 'k', baseURL: `${primaryServer.url}/v1`, discovery: false });
    const backup = openaiProvider({ id: 'local', apiKey: 'k', baseURL: `${backupServer.url}/v1` });
    const switches: string[] = [];
    const chain = withFallback(
      [
        { provider: primary, model: 'gpt-4o' },
        { provider: backup, model: 'local-coder' },
      ],
      { onSwitch: ({ to }) => switches.push(`${to.provider.id}:${to.model}`) },
    );
    const thresholds: number[] = [];
    const { result, target } = await chain.run(async ({ provider, model, contextWindow }) => {
      const limits = await contextWindow();
      thresholds.push(compactionThreshold(limits.contextWindow, limits.maxOutputTokens ?? 0));
      return provider.summarizer?.(model).summarize({ messages, instructions: 'x' });
    });
    expect(result).toBe('## Task\nPort the CLI to Node 20.');
    expect(target.model).toBe('local-coder');
    expect(switches).toEqual(['local:local-coder']);
    // gpt-4o: 128,000 window, 16,384 out → 64,000; the local fallback: 16,384 discovered → 8,192
    expect(thresholds).toEqual([64_000, 8_192]);
    const limits = await chain.contextWindow();
    expect(compactionThreshold(limits.contextWindow, limits.maxOutputTokens ?? 0)).toBe(8_192);
  });
});
