import type { ServerResponse } from 'node:http';
import type { Message } from '@ctxkit/core';
import { ProviderCallError, readJsonEvents, request, requestJson } from '@ctxkit/provider-utils';
import { fileStore } from '@ctxkit/store';
import { closeTestServers, fixtureReader, type RecordedRequest, runProviderConformance, sendJson, sendStream, startTestServer, type TestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lmstudioProvider } from './lmstudio-provider.ts';
import type { LmStudioModel, LmStudioModelsResponse } from './lmstudio-window.ts';

const { text: fixture, json: fixtureJson } = fixtureReader(import.meta.url);

interface LmStudioState {
  models: LmStudioModel[];
  /** False: an LM Studio before 0.3.6, or one where v0 is gone: only /api/v1/models answers. */
  v0?: boolean;
  chat?: (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;
}

afterEach(closeTestServers);

async function lmstudioServer(state: LmStudioState): Promise<TestServer> {
  const server = await startTestServer(async (request, response) => {
    if (request.path === '/api/v0/models' && state.v0 !== false) return sendJson(response, 200, { object: 'list', data: state.models });
    if (request.path === '/api/v1/models') return sendJson(response, 200, fixture('api-v1-models.json'));
    if (request.path === '/v1/chat/completions' && state.chat) return state.chat(request, response);
    sendJson(response, 404, { error: `Unexpected endpoint or method. (${request.method} ${request.path})` });
  });
  return server;
}

const listed = () => structuredClone(fixtureJson<LmStudioModelsResponse>('api-v0-models.json').data ?? []);

const transcript: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make the failing parser test pass.' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"src/parser.ts"}' }] },
  { role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: 'export function tokenize() {}' },
];

describe('lmstudioProvider: the window of the model serving the request', () => {
  it('answers with the loaded context length from /api/v0/models', async () => {
    const server = await lmstudioServer({ models: listed() });
    expect(await lmstudioProvider({ baseURL: server.url }).contextWindow('qwen3-8b')).toEqual({ contextWindow: 16_384, source: 'discovered' });
  });

  it('gives a model not loaded the just-in-time context, capped at its maximum', async () => {
    const server = await lmstudioServer({ models: listed() });
    expect((await lmstudioProvider({ baseURL: server.url }).contextWindow('meta-llama-3.1-8b-instruct')).contextWindow).toBe(4096);
    const configured = lmstudioProvider({ baseURL: server.url, unloadedContextLength: 32_768 });
    expect((await configured.contextWindow('meta-llama-3.1-8b-instruct')).contextWindow).toBe(32_768);
    expect((await configured.contextWindow('smollm2-360m-instruct')).contextWindow).toBe(2048);
  });

  it('reads /api/v1/models where /api/v0 is gone', async () => {
    const server = await lmstudioServer({ models: [], v0: false });
    expect((await lmstudioProvider({ baseURL: server.url }).contextWindow('qwen/qwen3-8b:2')).contextWindow).toBe(32_768);
    expect(server.requestsTo('/api/v0/models')).toHaveLength(1);
  });

  it('follows a just-in-time load, and keeps the loaded length once the model is unloaded again', async () => {
    const state: LmStudioState = { models: listed() };
    const server = await lmstudioServer(state);
    const lmstudio = lmstudioProvider({ baseURL: server.url });
    expect((await lmstudio.contextWindow('meta-llama-3.1-8b-instruct')).contextWindow).toBe(4096);
    const llama = state.models.find((model) => model.id === 'meta-llama-3.1-8b-instruct') as LmStudioModel;
    Object.assign(llama, { state: 'loaded', loaded_context_length: 8192 });
    await vi.waitFor(async () => expect((await lmstudio.contextWindow('meta-llama-3.1-8b-instruct')).contextWindow).toBe(8192), { timeout: 10_000 });
    Object.assign(llama, { state: 'not-loaded', loaded_context_length: undefined });
    expect(await lmstudio.windows.refresh('meta-llama-3.1-8b-instruct')).toEqual({ contextWindow: 8192, source: 'discovered' });
  });

  it('reports a model LM Studio does not list, naming what it lists, and answers with the default', async () => {
    const server = await lmstudioServer({ models: listed() });
    const errors: unknown[] = [];
    const lmstudio = lmstudioProvider({ baseURL: server.url, onError: (error) => errors.push(error) });
    expect(await lmstudio.contextWindow('mistral-7b')).toEqual({ contextWindow: 4096, source: 'default' });
    await vi.waitFor(() => expect(errors.map(String).join()).toMatch(/lists no model "mistral-7b" \(it lists: qwen3-8b, meta-llama-3.1-8b-instruct/), { timeout: 10_000 });
  });
});

runProviderConformance({
  name: 'lmstudioProvider',
  create: (settings) => lmstudioProvider(settings),
  model: 'qwen3-8b',
  serve: () => lmstudioServer({ models: listed() }),
  discovered: { contextWindow: 16_384, source: 'discovered' },
  undiscovered: { contextWindow: 4096, source: 'default' },
  cutShort: { discovery: '{"object":"list","data":[{"id":"qwen3-8b",', answer: '{"id":"chatcmpl-1","choices":[{"message":' },
  callError: ProviderCallError,
  fileStore,
  refreshesOnEveryCall: true,
});

describe('lmstudioProvider: usage, errors and learned windows', () => {
  it('reads usage from a real SSE stream with include_usage: the last chunk', async () => {
    const server = await lmstudioServer({ models: listed(), chat: (_request, response) => sendStream(response, fixture('chat-stream.sse').split(/(?<=\n\n)/), { contentType: 'text/event-stream' }) });
    const lmstudio = lmstudioProvider({ baseURL: server.url });
    const { body } = await request(`${server.url}/v1/chat/completions`, {
      provider: 'lmstudio',
      body: { model: 'qwen3-8b', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } },
    });
    const chunks: unknown[] = [];
    for await (const event of readJsonEvents(body, { provider: 'lmstudio' })) chunks.push(event.data);
    expect(chunks).toHaveLength(5);
    expect(lmstudio.usage(chunks)).toEqual({ inputTokens: 1830, outputTokens: 96 });
    expect(lmstudio.usage(chunks.slice(0, 4))).toBeUndefined();
  });

  it('classifies LM Studio overflows with their numbers, and learns the loaded limit of the model', async () => {
    const answers: Record<string, [number, string]> = {
      '/keep': [400, fixture('error-keep-first-tokens.json')],
      '/n-keep': [400, fixture('error-n-keep.json')],
      '/none-loaded': [404, fixture('error-no-models-loaded.json')],
    };
    const server = await startTestServer((request, response) => {
      if (request.path === '/api/v0/models') return sendJson(response, 200, { data: listed() });
      const [status, body] = answers[request.path] ?? [500, '{}'];
      sendJson(response, status, body);
    });
    const lmstudio = lmstudioProvider({ baseURL: server.url });
    const failure = (path: string) => requestJson(`${server.url}${path}`, { provider: 'lmstudio' }).catch((error: unknown) => error);
    expect(lmstudio.classifyError(await failure('/n-keep'))).toMatchObject({ kind: 'context_overflow', reportedTokens: 13_055, limitTokens: 4096, fallback: false });
    expect(lmstudio.classifyError(await failure('/none-loaded'))).toMatchObject({ kind: 'other', fallback: true, retryable: false });

    expect((await lmstudio.contextWindow('qwen3-8b')).contextWindow).toBe(16_384);
    expect(lmstudio.classifyError(await failure('/keep'), { model: 'qwen3-8b' })).toMatchObject({ kind: 'context_overflow', reportedTokens: 5321, limitTokens: 4096 });
    await vi.waitFor(async () => expect(await lmstudio.contextWindow('qwen3-8b')).toEqual({ contextWindow: 4096, source: 'learned' }), { timeout: 10_000 });
  });
});

describe('lmstudioProvider: the summarizer', () => {
  it('sends one chat completion with the instructions as the system message and returns the summary without its reasoning', async () => {
    const server = await lmstudioServer({ models: listed(), chat: (_request, response) => sendJson(response, 200, fixture('chat-completion.json')) });
    const summarizer = lmstudioProvider({ baseURL: `${server.url}/v1`, apiKey: 'lm-token' }).summarizer('qwen3-8b');
    const summary = await summarizer.summarize({ messages: transcript, instructions: 'Write a structured summary.', maxOutputTokens: 800 });
    expect(summary.startsWith('## Task\nMake the failing parser test pass.')).toBe(true);
    const [sent] = server.requestsTo('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer lm-token');
    const body = JSON.parse(sent?.body ?? '{}') as { model: string; max_tokens: number; stream: boolean; messages: { role: string; content: string }[] };
    expect(body).toMatchObject({ model: 'qwen3-8b', max_tokens: 800, stream: false });
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(body.messages[1]?.content).toContain('[4] tool (read_file for call_1):');
  });

  it('fails on a summary cut off at its output limit, and on an error inside a 200 answer', async () => {
    const cut = { ...fixtureJson<Record<string, unknown>>('chat-completion.json'), choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: '## Task\nMake the' } }] };
    const cutServer = await lmstudioServer({ models: listed(), chat: (_request, response) => sendJson(response, 200, cut) });
    await expect(lmstudioProvider({ baseURL: cutServer.url }).summarizer('qwen3-8b').summarize({ messages: transcript, instructions: 'Summarize.' })).rejects.toThrow(/cut off at its output limit/);

    const erring = await lmstudioServer({ models: listed(), chat: (_request, response) => sendJson(response, 200, fixture('error-keep-first-tokens.json')) });
    const lmstudio = lmstudioProvider({ baseURL: erring.url });
    const error = await lmstudio
      .summarizer('qwen3-8b')
      .summarize({ messages: transcript, instructions: 'Summarize.' })
      .catch((failure: unknown) => failure);
    expect(ProviderCallError.isInstance(error) && error.status === 200).toBe(true);
    expect(lmstudio.classifyError(error)).toMatchObject({ kind: 'context_overflow', limitTokens: 4096 });
    // The summarizer's own overflow taught the window of its model.
    await vi.waitFor(async () => expect(await lmstudio.contextWindow('qwen3-8b')).toEqual({ contextWindow: 4096, source: 'learned' }), { timeout: 10_000 });
  });

  it('rejects bad options with a clear error', () => {
    expect(() => lmstudioProvider({ unloadedContextLength: 1.5 })).toThrow(/unloadedContextLength must be a whole number above zero/);
    expect(() => lmstudioProvider({ id: 'two words' as 'lmstudio' })).toThrow(/id must be a name/);
  });
});
