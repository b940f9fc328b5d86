import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@ctxkit/core';
import { ProviderCallError, readJsonEvents, request, withFallback } from '@ctxkit/provider-utils';
import { fileStore } from '@ctxkit/store';
import { compactionThreshold } from '@ctxkit/threshold';
import { closeTestServers, fixtureReader, refusedURL, runProviderConformance, sendJson, sendStream, startTestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicProvider } from './anthropic-provider.ts';
import { anthropicUsage } from './anthropic-usage.ts';

const fixtures = fixtureReader(import.meta.url);
const fixture = fixtures.text;
const json = (name: string) => fixtures.json<Record<string, unknown>>(name);

afterEach(closeTestServers);

const messages: Message[] = [
  { role: 'user', content: 'Add retries to the HTTP client' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"client.ts"}' }] },
  { role: 'tool', toolCallId: 'toolu_1', content: 'export const client = fetch;' },
];

/** An Anthropic-like server: the Models API with the given windows, and /v1/messages answering `message`. */
function anthropicLike(models: Record<string, { max_input_tokens: number | null; max_tokens: number | null }>, message: (model: string) => [number, unknown, Record<string, string>?]) {
  return startTestServer((request, response) => {
    const modelPath = /^\/v1\/models\/(.+)$/.exec(request.path);
    if (modelPath) {
      const info = models[decodeURIComponent(modelPath[1] ?? '')];
      if (!info) return sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: 'model not found' } });
      return sendJson(response, 200, { ...json('model.json'), id: modelPath[1], ...info });
    }
    const [status, body, headers] = message((request.json as { model: string }).model);
    return sendJson(response, status, body as object, headers);
  });
}

describe('anthropicProvider windows', () => {
  it('discovers windows from the Models API, per model, with the API headers', async () => {
    const server = await anthropicLike(
      { 'claude-sonnet-4-20250514': { max_input_tokens: 200_000, max_tokens: 64_000 }, 'claude-3-haiku-20240307': { max_input_tokens: 200_000, max_tokens: 4_096 } },
      () => [200, {}],
    );
    const anthropic = anthropicProvider({ apiKey: 'sk-ant', baseURL: `${server.url}/v1` });
    expect(await anthropic.contextWindow('claude-sonnet-4-20250514')).toEqual({ contextWindow: 200_000, maxOutputTokens: 64_000, source: 'discovered' });
    expect(await anthropic.contextWindow('claude-3-haiku-20240307')).toEqual({ contextWindow: 200_000, maxOutputTokens: 4_096, source: 'discovered' });
    expect(server.requests[0]?.headers).toMatchObject({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01' });
  });

  it('uses the catalog where the API reports null or does not know the model, and the default after that', async () => {
    const server = await anthropicLike({ 'claude-sonnet-4-20250514': { max_input_tokens: null, max_tokens: null } }, () => [200, {}]);
    const anthropic = anthropicProvider({ apiKey: 'k', baseURL: `${server.url}/v1` });
    expect(await anthropic.contextWindow('claude-sonnet-4-20250514')).toMatchObject({ contextWindow: 200_000, source: 'catalog' });
    expect(await anthropic.contextWindow('claude-3-5-haiku-latest')).toMatchObject({ source: 'catalog' });
    expect(await anthropic.contextWindow('claude-next-unknown')).toEqual({ contextWindow: 32_768, source: 'default' });
    const down = anthropicProvider({ apiKey: 'k', baseURL: `${await refusedURL()}/v1` });
    expect(await down.contextWindow('claude-sonnet-4-20250514')).toMatchObject({ contextWindow: 200_000, source: 'catalog' });
  });
});

runProviderConformance({
  name: 'anthropicProvider',
  create: (settings) => anthropicProvider({ apiKey: 'k', ...settings }),
  apiPath: '/v1',
  model: 'claude-sonnet-4-5',
  serve: () => anthropicLike({ 'claude-sonnet-4-5': { max_input_tokens: 1_000_000, max_tokens: 64_000 } }, () => [200, {}]),
  discovered: { contextWindow: 1_000_000, maxOutputTokens: 64_000, source: 'discovered' },
  undiscovered: { contextWindow: 200_000, maxOutputTokens: 64_000, source: 'catalog' },
  cutShort: { discovery: '{"type":"model","id":"claude-sonnet-4-5","max_input_tokens":', answer: '{"type":"message","content":[{"type":"te' },
  callError: ProviderCallError,
  fileStore,
});

describe('anthropicProvider usage', () => {
  it('adds cache writes and reads to input_tokens', () => {
    expect(anthropicUsage(json('message.json'))).toEqual({ inputTokens: 2_095 + 2_051 + 14_238, cachedInputTokens: 14_238, outputTokens: 503 });
  });

  it('reads a real stream: input from message_start, output from message_delta', async () => {
    const server = await startTestServer((_request, response) => sendStream(response, fixture('message-stream.sse').split(/(?<=\n\n)/)));
    const open = await request(`${server.url}/v1/messages`, { provider: 'anthropic', body: { stream: true } });
    const events: { event?: string; data: unknown }[] = [];
    for await (const event of readJsonEvents(open.body, { provider: 'anthropic' })) events.push(event);
    expect(events[0]?.event).toBe('message_start');
    expect(anthropicUsage(events[0]?.data)).toEqual({ inputTokens: 13_272, cachedInputTokens: 12_800, outputTokens: 2 });
    expect(anthropicUsage(events.map((event) => event.data))).toEqual({ inputTokens: 13_272, cachedInputTokens: 12_800, outputTokens: 15 });
    // a message_delta alone carries no input count
    expect(anthropicUsage(events.find((event) => event.event === 'message_delta')?.data)).toBeUndefined();
  });
});

describe('anthropicProvider summarizer and errors', () => {
  it('sends the instructions as system and the transcript as one user message', async () => {
    const server = await anthropicLike({}, () => [200, json('message.json')]);
    const summary = await anthropicProvider({ apiKey: 'k', baseURL: `${server.url}/v1` })
      .summarizer('claude-sonnet-4-20250514')
      .summarize({ messages, instructions: 'Summarize with the template.' });
    expect(summary).toBe('## Task\nAdd retries to the HTTP client.\n## Done\nRead client.ts; no retry logic yet.\n## Next steps\nWrap fetch in a bounded retry.');
    const body = server.requests.find((entry) => entry.path === '/v1/messages')?.json as { system: string; max_tokens: number; messages: { role: string; content: string }[] };
    expect(body.system).toBe('Summarize with the template.');
    expect(body.max_tokens).toBe(4_096);
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]?.content).toContain('[3] tool (result for toolu_1):\nexport const client = fetch;');
  });

  it('turns the stop reason model_context_window_exceeded into an overflow, not a summary', async () => {
    const server = await anthropicLike({}, () => [200, json('model-context-window-exceeded.json')]);
    const anthropic = anthropicProvider({ apiKey: 'k', baseURL: `${server.url}/v1` });
    const error = await anthropic
      .summarizer('claude-sonnet-4-5')
      .summarize({ messages, instructions: 'x' })
      .then(
        () => expect.unreachable('the call resolved; it must reject'),
        (caught: unknown) => caught,
      );
    expect(anthropic.classifyError(error)).toMatchObject({ kind: 'context_overflow', fallback: false });
    expect(anthropic.classifyError(json('model-context-window-exceeded.json')).kind).toBe('context_overflow');
  });

  it('learns the served window from "prompt is too long" and persists it', async () => {
    const server = await anthropicLike({ 'claude-sonnet-4-5': { max_input_tokens: 1_000_000, max_tokens: 64_000 } }, () => [400, json('error-prompt-too-long.json')]);
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-anthropic-'));
    const anthropic = anthropicProvider({ apiKey: 'k', baseURL: `${server.url}/v1`, store: fileStore(dir) });
    expect((await anthropic.contextWindow('claude-sonnet-4-5')).contextWindow).toBe(1_000_000);
    const error = await anthropic
      .summarizer('claude-sonnet-4-5')
      .summarize({ messages, instructions: 'x' })
      .then(
        () => expect.unreachable('the call resolved; it must reject'),
        (caught: unknown) => caught,
      );
    expect(anthropic.classifyError(error)).toMatchObject({ kind: 'context_overflow', reportedTokens: 208_310, limitTokens: 200_000 });
    expect(await anthropicProvider({ apiKey: 'k', baseURL: `${server.url}/v1`, store: fileStore(dir) }).contextWindow('claude-sonnet-4-5')).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      source: 'learned',
    });
  });

  it('classifies rate limits (with retry-after) and overload', async () => {
    const anthropic = anthropicProvider();
    const call = async (server: string, timeoutMs?: number) =>
      anthropicProvider({ apiKey: 'k', baseURL: `${server}/v1` })
        .summarizer('claude-3-haiku-20240307', timeoutMs ? { timeoutMs } : {})
        .summarize({ messages, instructions: 'x' })
        .then(
          () => expect.unreachable('the call resolved; it must reject'),
          (caught: unknown) => caught,
        );
    const limited = await anthropicLike({}, () => [429, json('error-rate-limit.json'), { 'retry-after': '12' }]);
    expect(anthropic.classifyError(await call(limited.url))).toMatchObject({ kind: 'rate_limit', retryAfterMs: 12_000, fallback: true, retryable: true });
    const overloaded = await anthropicLike({}, () => [529, json('error-overloaded.json')]);
    expect(anthropic.classifyError(await call(overloaded.url))).toMatchObject({ kind: 'rate_limit', status: 529, fallback: true });
  });

  it('a fallback to a model with another window changes the threshold', async () => {
    const server = await anthropicLike({ 'claude-opus-4-1': { max_input_tokens: 200_000, max_tokens: 32_000 }, 'claude-3-haiku-20240307': { max_input_tokens: 48_000, max_tokens: 4_096 } }, (model) =>
      model === 'claude-opus-4-1' ? [529, json('error-overloaded.json')] : [200, json('message.json')],
    );
    const anthropic = anthropicProvider({ apiKey: 'k', baseURL: `${server.url}/v1` });
    const served: string[] = [];
    const chain = withFallback(
      [
        { provider: anthropic, model: 'claude-opus-4-1' },
        { provider: anthropic, model: 'claude-3-haiku-20240307' },
      ],
      { onSwitch: ({ to }) => served.push(to.model) },
    );
    const thresholds: number[] = [];
    const { target } = await chain.run(async ({ provider, model, contextWindow }) => {
      const limits = await contextWindow();
      thresholds.push(compactionThreshold(limits.contextWindow, limits.maxOutputTokens ?? 0));
      return provider.summarizer?.(model).summarize({ messages, instructions: 'x' });
    });
    expect(target.model).toBe('claude-3-haiku-20240307');
    expect(served).toEqual(['claude-3-haiku-20240307']);
    expect(thresholds).toEqual([100_000, 24_000]);
  });
});
