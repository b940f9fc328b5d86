import type { ServerResponse } from 'node:http';
import type { Message } from '@ctxkit/core';
import { ProviderCallError, readJsonEvents, request, requestJson } from '@ctxkit/provider-utils';
import { fileStore } from '@ctxkit/store';
import { closeTestServers, fixtureReader, type RecordedRequest, runProviderConformance, sendJson, sendStream, startTestServer, type TestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { vllmProvider } from './vllm-provider.ts';
import type { VllmModelsResponse } from './vllm-window.ts';

const { text: fixture, json: fixtureJson } = fixtureReader(import.meta.url);

const coder = 'Qwen/Qwen2.5-Coder-32B-Instruct';

interface VllmState {
  models: VllmModelsResponse;
  chat?: (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;
  apiKey?: string;
}

afterEach(closeTestServers);

async function vllmServer(state: VllmState): Promise<TestServer> {
  const server = await startTestServer(async (request, response) => {
    // vllm serve --api-key protects the /v1 routes.
    if (state.apiKey && request.headers.authorization !== `Bearer ${state.apiKey}`) return sendJson(response, 401, { error: 'Unauthorized' });
    if (request.method === 'GET' && request.path === '/v1/models') return sendJson(response, 200, state.models);
    if (request.method === 'POST' && request.path === '/v1/chat/completions' && state.chat) return state.chat(request, response);
    sendJson(response, 404, { detail: 'Not Found' });
  });
  return server;
}

const served = () => structuredClone(fixtureJson<VllmModelsResponse>('v1-models.json'));

const transcript: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make the failing parser test pass.' },
  { role: 'assistant', content: 'Reading the parser.' },
];

describe('vllmProvider: the window of the model serving the request', () => {
  it('answers with max_model_len from /v1/models, sending the API key', async () => {
    const server = await vllmServer({ models: served(), apiKey: 'token-abc123' });
    const vllm = vllmProvider({ baseURL: `${server.url}/v1`, apiKey: 'token-abc123' });
    expect(await vllm.contextWindow(coder)).toEqual({ contextWindow: 32_768, source: 'discovered' });
    expect(await vllm.contextWindow('sql-lora')).toEqual({ contextWindow: 32_768, source: 'discovered' });
  });

  it('reports a refused API key and answers with the default', async () => {
    const server = await vllmServer({ models: served(), apiKey: 'token-abc123' });
    const errors: unknown[] = [];
    const vllm = vllmProvider({ baseURL: server.url, onError: (error) => errors.push(error) });
    expect(await vllm.contextWindow(coder)).toEqual({ contextWindow: 4096, source: 'default' });
    await vi.waitFor(() => expect(errors.some((error) => ProviderCallError.isInstance(error) && error.status === 401)).toBe(true), { timeout: 10_000 });
  });

  it('follows a server restarted with another --max-model-len', async () => {
    const state: VllmState = { models: served() };
    const server = await vllmServer(state);
    const vllm = vllmProvider({ baseURL: server.url });
    expect((await vllm.contextWindow(coder)).contextWindow).toBe(32_768);
    const [base] = state.models.data ?? [];
    if (base) base.max_model_len = 16_384;
    await vi.waitFor(async () => expect((await vllm.contextWindow(coder)).contextWindow).toBe(16_384), { timeout: 10_000 });
  });

  it('reports a model the server does not serve, naming those it does', async () => {
    const server = await vllmServer({ models: served() });
    const errors: unknown[] = [];
    const vllm = vllmProvider({ baseURL: server.url, onError: (error) => errors.push(error) });
    expect(await vllm.contextWindow('Qwen/Qwen3-8B')).toEqual({ contextWindow: 4096, source: 'default' });
    await vi.waitFor(() => expect(errors.map(String).join()).toMatch(/serves no model "Qwen\/Qwen3-8B" \(it serves: Qwen\/Qwen2.5-Coder-32B-Instruct, sql-lora\)/), { timeout: 10_000 });
  });
});

runProviderConformance({
  name: 'vllmProvider',
  create: (settings) => vllmProvider(settings),
  model: coder,
  serve: () => vllmServer({ models: served() }),
  discovered: { contextWindow: 32_768, source: 'discovered' },
  undiscovered: { contextWindow: 4096, source: 'default' },
  cutShort: { discovery: '{"object":"list","data":[{"id":', answer: '{"id":"chatcmpl-1","choices":[' },
  callError: ProviderCallError,
  fileStore,
  refreshesOnEveryCall: true,
});

describe('vllmProvider: usage, errors and learned windows', () => {
  it('reads usage from a real SSE stream with include_usage, cached prompt tokens apart', async () => {
    const server = await vllmServer({
      models: served(),
      chat: (_request, response) => sendStream(response, fixture('chat-stream.sse').split(/(?<=\n\n)/), { contentType: 'text/event-stream; charset=utf-8' }),
    });
    const vllm = vllmProvider({ baseURL: server.url });
    const { body } = await request(`${server.url}/v1/chat/completions`, { provider: 'vllm', body: { model: coder, messages: [], stream: true, stream_options: { include_usage: true } } });
    const chunks: unknown[] = [];
    for await (const event of readJsonEvents(body, { provider: 'vllm' })) chunks.push(event.data);
    expect(vllm.usage(chunks)).toEqual({ inputTokens: 1830, cachedInputTokens: 1536, outputTokens: 96 });
    expect(vllm.usage(fixtureJson('chat-completion.json'))).toEqual({ inputTokens: 2412, cachedInputTokens: 2048, outputTokens: 58 });
  });

  it("classifies vLLM's answers: both overflow wordings, both body shapes, max_tokens too large, a model it does not serve", async () => {
    const answers: Record<string, [number, string]> = {
      '/overflow': [400, fixture('error-context-length.json')],
      '/overflow-legacy': [400, fixture('error-context-length-legacy.json')],
      '/input-too-long': [400, fixture('error-input-too-long.json')],
      '/max-tokens': [400, fixture('error-max-tokens.json')],
      '/missing': [404, fixture('error-model-not-found.json')],
    };
    const server = await startTestServer((request, response) => {
      const [status, body] = answers[request.path] ?? [500, '{}'];
      sendJson(response, status, body);
    });
    const vllm = vllmProvider({ baseURL: server.url });
    const classify = async (path: string) => vllm.classifyError(await requestJson(`${server.url}${path}`, { provider: 'vllm' }).catch((error: unknown) => error));
    const overflow = { kind: 'context_overflow', reportedTokens: 35_120, limitTokens: 32_768, fallback: false };
    expect(await classify('/overflow')).toMatchObject(overflow);
    expect(await classify('/overflow-legacy')).toMatchObject(overflow);
    expect(await classify('/input-too-long')).toMatchObject({ kind: 'context_overflow', limitTokens: 32_768, inputTokens: 30_721 });
    expect(await classify('/max-tokens')).toMatchObject({ kind: 'max_tokens', reportedTokens: 32_000, limitTokens: 32_768 });
    expect(await classify('/missing')).toMatchObject({ kind: 'other', fallback: true, retryable: false, status: 404 });
  });

  it('learns a shorter window stated by an overflow (a proxy in front of vLLM), until vLLM itself reports a change', async () => {
    const state: VllmState = { models: served() };
    const server = await vllmServer(state);
    const vllm = vllmProvider({ baseURL: server.url });
    expect((await vllm.contextWindow(coder)).contextWindow).toBe(32_768);
    const proxied = {
      status: 400,
      body: '{"error":{"message":"litellm.ContextWindowExceededError: This model\'s maximum context length is 16000 tokens. However, you requested 17165 tokens (13069 in the messages, 4096 in the completion)."}}',
    };
    expect(await vllm.learnFromError(coder, proxied)).toMatchObject({ limits: { contextWindow: 16_000, source: 'learned' } });
    expect(await vllm.contextWindow(coder)).toEqual({ contextWindow: 16_000, source: 'learned' });
    // The server restarts with a larger --max-model-len: the old lesson no longer holds.
    const [base] = state.models.data ?? [];
    if (base) base.max_model_len = 65_536;
    await vi.waitFor(async () => expect(await vllm.contextWindow(coder)).toEqual({ contextWindow: 65_536, source: 'discovered' }), { timeout: 10_000 });
  });
});

describe('vllmProvider: the summarizer', () => {
  it('sends one chat completion and returns the summary; an overflow of its own teaches the window', async () => {
    const server = await vllmServer({ models: served(), chat: (_request, response) => sendJson(response, 200, fixture('chat-completion.json')) });
    const vllm = vllmProvider({ baseURL: server.url });
    expect(await vllm.summarizer(coder).summarize({ messages: transcript, instructions: 'Summarize.', maxOutputTokens: 512 })).toMatch(/^## Task\nMake the failing parser test pass\./);
    expect(JSON.parse(server.requestsTo('/v1/chat/completions')[0]?.body ?? '{}')).toMatchObject({ model: coder, max_tokens: 512, stream: false });

    server.handle((request, response) => (request.path === '/v1/models' ? sendJson(response, 200, served()) : sendJson(response, 400, fixture('error-context-length.json'))));
    const error = await vllm
      .summarizer('sql-lora')
      .summarize({ messages: transcript, instructions: 'Summarize.' })
      .catch((failure: unknown) => failure);
    expect(vllm.classifyError(error)).toMatchObject({ kind: 'context_overflow', limitTokens: 32_768 });
  });
});
