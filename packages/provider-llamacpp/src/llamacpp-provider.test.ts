import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@ctxkit/core';
import { ProviderCallError, readJsonEvents, request, requestJson } from '@ctxkit/provider-utils';
import { fileStore } from '@ctxkit/store';
import { closeTestServers, fixtureReader, type RecordedRequest, runProviderConformance, sendJson, sendStream, startTestServer, type TestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { llamacppProvider } from './llamacpp-provider.ts';
import type { LlamaCppModelsResponse, LlamaCppProps } from './llamacpp-window.ts';

const { text: fixture, json: fixtureJson } = fixtureReader(import.meta.url);

/** llama-server's default model id: the path given to -m. */
const modelPath = '../models/Qwen3-8B-Q4_K_M.gguf';
const gemma = 'ggml-org/gemma-3-4b-it-GGUF:Q4_K_M';

interface LlamaState {
  models: LlamaCppModelsResponse;
  /** /props answers, per model in router mode ('' for the single model). */
  props: Record<string, LlamaCppProps | [number, string]>;
  chat?: (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;
}

const folders: string[] = [];
afterEach(async () => {
  await closeTestServers();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function llamaServer(state: LlamaState): Promise<TestServer> {
  const server = await startTestServer(async (request, response) => {
    if (request.path === '/v1/models') return sendJson(response, 200, state.models);
    if (request.path === '/props') {
      const answer = state.props[request.url.searchParams.get('model') ?? ''];
      if (Array.isArray(answer)) return sendJson(response, answer[0], answer[1]);
      return answer ? sendJson(response, 200, answer) : sendJson(response, 400, { error: { code: 400, message: 'model name is missing from the request', type: 'invalid_request_error' } });
    }
    if (request.path === '/v1/chat/completions' && state.chat) return state.chat(request, response);
    sendJson(response, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
  });
  return server;
}

const singleModel = (): LlamaState => ({ models: fixtureJson('v1-models-single.json'), props: { '': fixtureJson('props-single.json') } });
const routerMode = (): LlamaState => ({ models: fixtureJson('v1-models-router.json'), props: { [gemma]: fixtureJson('props-router-gemma.json') } });

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-llamacpp-'));
  folders.push(folder);
  return folder;
}

const transcript: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make the failing parser test pass.' },
  { role: 'assistant', content: 'Reading the parser.' },
];

describe('llamacppProvider: the window of the model serving the request', () => {
  it("answers with a slot's n_ctx from /props, whatever name a request gives the one model", async () => {
    const server = await llamaServer(singleModel());
    const llamacpp = llamacppProvider({ baseURL: server.url });
    expect(await llamacpp.contextWindow(modelPath)).toEqual({ contextWindow: 8192, source: 'discovered' });
    expect(await llamacpp.contextWindow('qwen3')).toEqual({ contextWindow: 8192, source: 'discovered' });
  });

  it('keeps the window of a model whose id is its path across a restart, over a file store, with the server down', async () => {
    const folder = temporaryFolder();
    const server = await llamaServer(singleModel());
    const errors: unknown[] = [];
    expect((await llamacppProvider({ baseURL: server.url, store: fileStore(folder), onError: (error) => errors.push(error) }).contextWindow(modelPath)).contextWindow).toBe(8192);
    await server.close();
    expect(errors).toEqual([]);
    // The file store refuses `..` in a key: the id is encoded, and nothing lands outside the folder.
    expect(readdirSync(folder)).toEqual(['windows']);
    expect(await llamacppProvider({ baseURL: server.url, store: fileStore(folder) }).contextWindow(modelPath)).toEqual({ contextWindow: 8192, source: 'discovered' });
  });

  it('in router mode, asks /props of a running model without loading anything, and reads the arguments of the others', async () => {
    const server = await llamaServer(routerMode());
    const llamacpp = llamacppProvider({ baseURL: server.url });
    expect(await llamacpp.contextWindow(gemma)).toEqual({ contextWindow: 8192, maxOutputTokens: 2048, source: 'discovered' });
    expect(await llamacpp.contextWindow('ggml-org/Qwen3-8B-GGUF:Q4_K_M')).toEqual({ contextWindow: 32_768, source: 'discovered' });
    expect(await llamacpp.contextWindow('ggml-org/SmolLM3-3B-GGUF:Q4_K_M')).toEqual({ contextWindow: 65_536, source: 'discovered' });
    const asked = server.requestsTo('/props').map((sent) => Object.fromEntries(sent.url.searchParams));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((query) => query.model === gemma && query.autoload === 'false')).toBe(true);
  });

  it('reports a model the router does not list and answers with the default', async () => {
    const server = await llamaServer(routerMode());
    const errors: unknown[] = [];
    const llamacpp = llamacppProvider({ baseURL: server.url, onError: (error) => errors.push(error) });
    expect(await llamacpp.contextWindow('mistral-7b')).toEqual({ contextWindow: 4096, source: 'default' });
    await vi.waitFor(() => expect(errors.map(String).join()).toMatch(/routes no model "mistral-7b" \(it lists: ggml-org\/gemma-3-4b-it-GGUF:Q4_K_M/), { timeout: 10_000 });
  });

  it('does not take a model still loading for a window, and picks the real one once loaded', async () => {
    const state: LlamaState = { models: { data: [{ id: modelPath, meta: null }] }, props: { '': [503, fixture('error-loading-model.json')] } };
    const server = await llamaServer(state);
    const llamacpp = llamacppProvider({ baseURL: server.url });
    expect(await llamacpp.contextWindow(modelPath)).toEqual({ contextWindow: 4096, source: 'default' });
    Object.assign(state, singleModel());
    await vi.waitFor(async () => expect(await llamacpp.contextWindow(modelPath)).toEqual({ contextWindow: 8192, source: 'discovered' }), { timeout: 10_000 });
  });
});

runProviderConformance({
  name: 'llamacppProvider',
  create: (settings) => llamacppProvider(settings),
  model: modelPath,
  serve: () => llamaServer(singleModel()),
  discovered: { contextWindow: 8192, source: 'discovered' },
  undiscovered: { contextWindow: 4096, source: 'default' },
  cutShort: { discovery: '{"default_generation_settings":{"n_ctx":', answer: '{"choices":[{"finish_reason":"stop","index":0,"message":' },
  callError: ProviderCallError,
  fileStore,
  refreshesOnEveryCall: true,
});

describe('llamacppProvider: usage, errors and learned windows', () => {
  async function streamed(file: string): Promise<unknown[]> {
    const server = await llamaServer({ ...singleModel(), chat: (_request, response) => sendStream(response, fixture(file).split(/(?<=\n\n)/), { contentType: 'text/event-stream' }) });
    const { body } = await request(`${server.url}/v1/chat/completions`, { provider: 'llamacpp', body: { model: modelPath, messages: [], stream: true, stream_options: { include_usage: true } } });
    const chunks: unknown[] = [];
    for await (const event of readJsonEvents(body, { provider: 'llamacpp' })) chunks.push(event.data);
    return chunks;
  }

  it('reads usage from a real SSE stream, and from the timings of builds that stream no usage', async () => {
    const llamacpp = llamacppProvider();
    expect(llamacpp.usage(await streamed('chat-stream.sse'))).toEqual({ inputTokens: 1830, cachedInputTokens: 1536, outputTokens: 96 });
    expect(llamacpp.usage(await streamed('chat-stream-no-usage.sse'))).toEqual({ inputTokens: 1830, cachedInputTokens: 1536, outputTokens: 96 });
    expect(llamacpp.usage(fixtureJson('chat-completion.json'))).toEqual({ inputTokens: 2412, cachedInputTokens: 2301, outputTokens: 58 });
  });

  it("classifies llama-server's answers, and learns the slot size an overflow states", async () => {
    const answers: Record<string, [number, string]> = {
      '/exceed': [400, fixture('error-exceed-context.json')],
      '/loading': [503, fixture('error-loading-model.json')],
      '/unrouted': [400, fixture('error-router-model-not-found.json')],
    };
    const state = singleModel();
    const server = await startTestServer((request, response) => {
      if (request.path === '/v1/models') return sendJson(response, 200, state.models);
      if (request.path === '/props') return sendJson(response, 200, { default_generation_settings: { n_ctx: 16_384 } });
      const [status, body] = answers[request.path] ?? [500, '{}'];
      sendJson(response, status, body);
    });
    const llamacpp = llamacppProvider({ baseURL: server.url });
    const failure = (path: string) => requestJson(`${server.url}${path}`, { provider: 'llamacpp' }).catch((error: unknown) => error);
    expect(llamacpp.classifyError(await failure('/loading'))).toMatchObject({ kind: 'rate_limit', fallback: true, retryable: true });
    expect(llamacpp.classifyError(await failure('/unrouted'))).toMatchObject({ kind: 'other', fallback: true, retryable: false });

    expect((await llamacpp.contextWindow(modelPath)).contextWindow).toBe(16_384);
    expect(llamacpp.classifyError(await failure('/exceed'), { model: modelPath })).toMatchObject({ kind: 'context_overflow', reportedTokens: 14_429, limitTokens: 8192, fallback: false });
    await vi.waitFor(async () => expect(await llamacpp.contextWindow(modelPath)).toEqual({ contextWindow: 8192, source: 'learned' }), { timeout: 10_000 });
  });
});

describe('llamacppProvider: the summarizer', () => {
  it('returns the answer, not the reasoning; an overflow of its own teaches the window', async () => {
    const state: LlamaState = { ...singleModel(), chat: (_request, response) => sendJson(response, 200, fixture('chat-completion.json')) };
    const server = await llamaServer(state);
    const llamacpp = llamacppProvider({ baseURL: server.url });
    expect(await llamacpp.summarizer(modelPath).summarize({ messages: transcript, instructions: 'Summarize.' })).toMatch(/^## Task\nMake the failing parser test pass\./);

    state.chat = (_request, response) => sendJson(response, 400, fixture('error-exceed-context.json'));
    expect((await llamacpp.contextWindow(modelPath)).contextWindow).toBe(8192);
    state.props = { '': { default_generation_settings: { n_ctx: 16_384 } } };
    await vi.waitFor(async () => expect((await llamacpp.contextWindow(modelPath)).contextWindow).toBe(16_384), { timeout: 10_000 });
    await expect(llamacpp.summarizer(modelPath).summarize({ messages: transcript, instructions: 'Summarize.' })).rejects.toSatisfy(
      (error) => ProviderCallError.isInstance(error) && error.status === 400,
    );
    await vi.waitFor(async () => expect(await llamacpp.contextWindow(modelPath)).toEqual({ contextWindow: 8192, source: 'learned' }), { timeout: 10_000 });
  });
});
