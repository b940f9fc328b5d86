import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CtxkitError, type Message } from '@ctxkit/core';
import { ProviderCallError, readJsonLines, request, requestJson, withFallback } from '@ctxkit/provider-utils';
import { fileStore } from '@ctxkit/store';
import { compactionThreshold } from '@ctxkit/threshold';
import { closeTestServers, fixtureReader, type RecordedRequest, runProviderConformance, sendJson, sendStream, startTestServer, type TestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ollamaProvider } from './ollama-provider.ts';
import { normalizeOllamaModel, type OllamaShowResponse } from './ollama-window.ts';

const { text: fixture, json: fixtureJson } = fixtureReader(import.meta.url);

/** What the fake Ollama knows: models on disk, models loaded, and how /api/chat answers. */
interface OllamaState {
  show: Record<string, OllamaShowResponse>;
  loaded: { name: string; context_length: number }[];
  chat?: (request: RecordedRequest, response: import('node:http').ServerResponse) => void | Promise<void>;
  /** Holds /api/show and /api/ps until resolved: a slow server. */
  gate?: Promise<void>;
}

const folders: string[] = [];
afterEach(async () => {
  await closeTestServers();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function ollamaServer(state: OllamaState): Promise<TestServer> {
  const server = await startTestServer(async (request, response) => {
    if (request.path === '/api/show' || request.path === '/api/ps') await state.gate;
    if (request.method === 'POST' && request.path === '/api/show') {
      const { model } = JSON.parse(request.body) as { model: string };
      const found = state.show[normalizeOllamaModel(model)];
      return found ? sendJson(response, 200, found) : sendJson(response, 404, { error: `model "${model}" not found, try pulling it first` });
    }
    if (request.method === 'GET' && request.path === '/api/ps') {
      return sendJson(response, 200, { models: state.loaded.map((entry) => ({ ...entry, model: entry.name, size: 7_612_837_888, size_vram: 7_612_837_888 })) });
    }
    if (request.method === 'POST' && request.path === '/api/chat' && state.chat) return state.chat(request, response);
    sendJson(response, 404, '404 page not found');
  });
  return server;
}

const qwen3 = fixtureJson<OllamaShowResponse>('api-show-qwen3.json');
const agentLlama = fixtureJson<OllamaShowResponse>('api-show-llama-modelfile.json');
const tinyllama = fixtureJson<OllamaShowResponse>('api-show-tinyllama.json');
const onDisk = { 'qwen3:8b': qwen3, 'agent-llama:latest': agentLlama, 'tinyllama:latest': tinyllama };

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-ollama-'));
  folders.push(folder);
  return folder;
}

const transcript: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make the failing parser test pass.' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"src/parser.ts"}' }] },
  { role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: 'export function tokenize() {}' },
];

describe('ollamaProvider: the window of the model serving the request', () => {
  it('answers with the context of the loaded model (/api/ps), asking /api/show for the model by name', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }] });
    const ollama = ollamaProvider({ baseURL: server.url });
    expect(await ollama.contextWindow('qwen3:8b')).toEqual({ contextWindow: 16_384, source: 'discovered' });
    expect(JSON.parse(server.requestsTo('/api/show')[0]?.body ?? '{}')).toEqual({ model: 'qwen3:8b' });
  });

  it('uses the Modelfile num_ctx, else the server default, capped at the trained length, for a model not loaded', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [] });
    const ollama = ollamaProvider({ baseURL: server.url });
    expect(await ollama.contextWindow('agent-llama')).toEqual({ contextWindow: 8192, maxOutputTokens: 2048, source: 'discovered' });
    expect((await ollama.contextWindow('qwen3:8b')).contextWindow).toBe(4096);
    expect((await ollama.contextWindow('tinyllama')).contextWindow).toBe(2048);
  });

  it('follows the numCtx the caller requests with, over what happens to be loaded', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }] });
    expect((await ollamaProvider({ baseURL: server.url, numCtx: 32_768 }).contextWindow('qwen3:8b')).contextWindow).toBe(32_768);
    expect((await ollamaProvider({ baseURL: server.url, numCtx: 200_000 }).contextWindow('qwen3:8b')).contextWindow).toBe(40_960);
  });

  it('asks again on every call, and follows the model reloaded with another context', async () => {
    const state: OllamaState = { show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }] };
    const server = await ollamaServer(state);
    const ollama = ollamaProvider({ baseURL: server.url });
    expect((await ollama.contextWindow('qwen3:8b')).contextWindow).toBe(16_384);
    state.loaded = [{ name: 'qwen3:8b', context_length: 32_768 }];
    await vi.waitFor(async () => expect((await ollama.contextWindow('qwen3:8b')).contextWindow).toBe(32_768), { timeout: 10_000 });
    expect(server.requestsTo('/api/ps').length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the window seen while the model was loaded after it unloads, rather than a guessed default', async () => {
    const state: OllamaState = { show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 32_768 }] };
    const server = await ollamaServer(state);
    const ollama = ollamaProvider({ baseURL: server.url });
    expect((await ollama.contextWindow('qwen3:8b')).contextWindow).toBe(32_768);
    state.loaded = [];
    expect(await ollama.windows.refresh('qwen3:8b')).toEqual({ contextWindow: 32_768, source: 'discovered' });
  });

  it('with a slow server at task start, answers at once from the default, and a later call picks the discovered window', async () => {
    let open: () => void = () => undefined;
    const state: OllamaState = { show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }], gate: new Promise<void>((resolve) => (open = resolve)) };
    const server = await ollamaServer(state);
    const ollama = ollamaProvider({ baseURL: server.url, discoveryTimeoutMs: 50 });
    expect(await ollama.contextWindow('qwen3:8b')).toEqual({ contextWindow: 4096, source: 'default' });
    open();
    await vi.waitFor(async () => expect(await ollama.contextWindow('qwen3:8b')).toEqual({ contextWindow: 16_384, source: 'discovered' }), { timeout: 10_000 });
  });

  it('gives a lookup racing another one (the summarizer looks its window up when made) the discovered window too', async () => {
    let open: () => void = () => undefined;
    const state: OllamaState = { show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }], gate: new Promise<void>((resolve) => (open = resolve)) };
    const server = await ollamaServer(state);
    const ollama = ollamaProvider({ baseURL: server.url });
    ollama.summarizer('qwen3:8b');
    const lookup = ollama.contextWindow('qwen3:8b');
    await vi.waitFor(() => expect(server.requests).toHaveLength(2), { timeout: 10_000 });
    open();
    expect(await lookup).toEqual({ contextWindow: 16_384, source: 'discovered' });
  });

  it('keeps the windows of two servers apart in one store', async () => {
    const store = fileStore(temporaryFolder());
    const small = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 8192 }] });
    const large = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 40_960 }] });
    expect((await ollamaProvider({ baseURL: small.url, store }).contextWindow('qwen3:8b')).contextWindow).toBe(8192);
    expect((await ollamaProvider({ baseURL: large.url, store }).contextWindow('qwen3:8b')).contextWindow).toBe(40_960);
  });

  it('reports a model the server does not have, and answers with the default', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [] });
    const errors: unknown[] = [];
    const ollama = ollamaProvider({ baseURL: server.url, onError: (error) => errors.push(error) });
    expect(await ollama.contextWindow('qwen3:32b')).toEqual({ contextWindow: 4096, source: 'default' });
    await vi.waitFor(() => expect(errors.some((error) => ProviderCallError.isInstance(error) && error.status === 404)).toBe(true), { timeout: 10_000 });
  });

  it('uses windows set by hand over discovery', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }] });
    const ollama = ollamaProvider({ baseURL: server.url, contextWindows: { 'qwen3:8b': 12_000 } });
    expect(await ollama.contextWindow('qwen3:8b')).toEqual({ contextWindow: 12_000, source: 'configured' });
  });

  it('sends the API key and drops an SDK suffix from the base URL', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [] });
    const ollama = ollamaProvider({ baseURL: `${server.url}/v1/`, apiKey: 'secret-key' });
    expect(ollama.baseURL).toBe(server.url);
    await ollama.contextWindow('qwen3:8b');
    expect(server.requestsTo('/api/show')[0]?.headers.authorization).toBe('Bearer secret-key');
  });

  it('rejects bad options and model ids with a clear error', async () => {
    expect(() => ollamaProvider({ baseURL: 'ftp://127.0.0.1:11434' })).toThrow(/must use http or https/);
    expect(() => ollamaProvider({ baseURL: '127.0.0.1:11434' })).toThrow(/not a URL/);
    expect(() => ollamaProvider({ numCtx: 0 })).toThrow(/numCtx must be a whole number above zero/);
    expect(() => ollamaProvider({ defaultContextWindow: -1 })).toThrow(/defaultContextWindow/);
    await expect(ollamaProvider().contextWindow('')).rejects.toSatisfy((error) => CtxkitError.isInstance(error, 'INVALID_ARGUMENT'));
  });
});

runProviderConformance({
  name: 'ollamaProvider',
  create: (settings) => ollamaProvider(settings),
  model: 'qwen3:8b',
  serve: () => ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }] }),
  discovered: { contextWindow: 16_384, source: 'discovered' },
  undiscovered: { contextWindow: 4096, source: 'default' },
  neverSeen: { model: 'agent-llama', limits: { contextWindow: 4096, source: 'default' } },
  cutShort: { discovery: (request) => (request.path === '/api/ps' ? '{"models":[' : '{"model_info": {"general.architecture": "qwen3",'), answer: '{"model":"qwen3:8b","message":{"role":"assis' },
  callError: ProviderCallError,
  fileStore,
  refreshesOnEveryCall: true,
});

describe('ollamaProvider: usage, errors and learned windows', () => {
  it('reads usage from a real streamed /api/chat: the final done line', async () => {
    const server = await ollamaServer({
      show: onDisk,
      loaded: [],
      chat: (_request, response) => sendStream(response, fixture('chat-stream.ndjson').split(/(?<=\n)/), { contentType: 'application/x-ndjson' }),
    });
    const ollama = ollamaProvider({ baseURL: server.url });
    const { body } = await request(`${server.url}/api/chat`, { provider: 'ollama', body: { model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }] } });
    const chunks: unknown[] = [];
    for await (const chunk of readJsonLines(body, { provider: 'ollama' })) chunks.push(chunk);
    expect(chunks).toHaveLength(5);
    expect(ollama.usage(chunks)).toEqual({ inputTokens: 1830, outputTokens: 96, inputIsLowerBound: true });
    expect(ollama.usage(chunks.at(-1))).toEqual({ inputTokens: 1830, outputTokens: 96, inputIsLowerBound: true });
  });

  it('classifies what Ollama answers: a missing model, a busy server, a prompt too long', async () => {
    const answers: Record<string, [number, string]> = {
      '/missing': [404, fixture('error-model-not-found.json')],
      '/busy': [503, fixture('error-server-busy.json')],
      '/long': [400, fixture('error-prompt-too-long.json')],
    };
    const server = await startTestServer((request, response) => {
      const [status, body] = answers[request.path] ?? [500, '{}'];
      sendJson(response, status, body);
    });
    const ollama = ollamaProvider({ baseURL: server.url });
    const classify = async (path: string) => ollama.classifyError(await requestJson(`${server.url}${path}`, { provider: 'ollama' }).catch((error: unknown) => error));
    expect(await classify('/missing')).toMatchObject({ kind: 'other', fallback: true, retryable: false, status: 404 });
    expect(await classify('/busy')).toMatchObject({ kind: 'rate_limit', fallback: true, retryable: true, status: 503 });
    expect(await classify('/long')).toMatchObject({ kind: 'context_overflow', fallback: false, status: 400 });
  });

  it('classifies an error line inside a 200 stream as a failed server, for the next provider to take over', async () => {
    const lines = ['{"model":"qwen3:8b","message":{"role":"assistant","content":"The"},"done":false}\n', '{"error":"an error was encountered while running the model: unexpected EOF"}\n'];
    const server = await ollamaServer({ show: onDisk, loaded: [], chat: (_request, response) => sendStream(response, lines, { contentType: 'application/x-ndjson' }) });
    const ollama = ollamaProvider({ baseURL: server.url });
    const { body } = await request(`${server.url}/api/chat`, { provider: 'ollama', body: { model: 'qwen3:8b', messages: [] } });
    const chunks: unknown[] = [];
    for await (const chunk of readJsonLines(body, { provider: 'ollama' })) chunks.push(chunk);
    expect(ollama.usage(chunks)).toBeUndefined();
    expect(ollama.classifyError({ status: 200, body: chunks.at(-1), provider: 'ollama' })).toMatchObject({ kind: 'other', fallback: true, retryable: true });
  });

  it('learns the window from an overflow that states the limit, and keeps it; not from one that does not', async () => {
    const folder = temporaryFolder();
    const server = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }] });
    const ollama = ollamaProvider({ baseURL: server.url, store: fileStore(folder) });
    expect((await ollama.contextWindow('qwen3:8b')).contextWindow).toBe(16_384);

    const silent = { status: 400, body: fixture('error-prompt-too-long.json') };
    expect(await ollama.learnFromError('qwen3:8b', silent)).toEqual({ classification: expect.objectContaining({ kind: 'context_overflow' }) });
    expect((await ollama.contextWindow('qwen3:8b')).contextWindow).toBe(16_384);

    // A gateway in front of the server states the limit it enforces.
    const stated = {
      status: 400,
      body: '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, you requested 9304 tokens (9304 in the messages, 0 in the completion)."}}',
    };
    expect(ollama.classifyError(stated, { model: 'qwen3:8b' })).toMatchObject({ kind: 'context_overflow', limitTokens: 8192 });
    await vi.waitFor(async () => expect(await ollama.contextWindow('qwen3:8b')).toEqual({ contextWindow: 8192, source: 'learned' }), { timeout: 10_000 });
    // And a new instance over the same store knows it too.
    expect(await ollamaProvider({ baseURL: server.url, store: fileStore(folder) }).contextWindow('qwen3:8b')).toEqual({ contextWindow: 8192, source: 'learned' });
  });

  it('moves to the next server when the first is busy, and the threshold follows the model now serving', async () => {
    const busy = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 40_960 }], chat: (_request, response) => sendJson(response, 503, fixture('error-server-busy.json')) });
    const spare = await ollamaServer({ show: onDisk, loaded: [{ name: 'agent-llama:latest', context_length: 8192 }], chat: (_request, response) => sendJson(response, 200, fixture('chat.json')) });
    const workstation = ollamaProvider({ id: 'ollama-workstation', baseURL: busy.url });
    const laptop = ollamaProvider({ id: 'ollama-laptop', baseURL: spare.url });
    const switches: string[] = [];
    const chain = withFallback(
      [
        { provider: workstation, model: 'qwen3:8b' },
        { provider: laptop, model: 'agent-llama' },
      ],
      { onSwitch: ({ to }) => switches.push(`${to.provider.id}/${to.model}`) },
    );
    const primary = await chain.contextWindow();
    expect(primary.contextWindow).toBe(40_960);
    const windows: number[] = [];
    const { target, result, attempts } = await chain.run(async ({ provider, model, contextWindow }) => {
      // As an agent step does: the window of the model about to serve, then the call.
      windows.push((await contextWindow()).contextWindow);
      return provider.summarizer(model).summarize({ messages: transcript, instructions: 'Summarize.' });
    });
    expect(windows).toEqual([40_960, 8192]);
    expect(attempts.map((attempt) => attempt.classification.kind)).toEqual(['rate_limit']);
    expect(target.provider.id).toBe('ollama-laptop');
    expect(result).toContain('## Task');
    expect(switches).toEqual(['ollama-laptop/agent-llama']);
    const serving = await chain.contextWindow();
    expect(serving.contextWindow).toBe(8192);
    expect(compactionThreshold(primary.contextWindow)).toBe(20_480);
    expect(compactionThreshold(serving.contextWindow)).toBe(4_096);
  });
});

describe('ollamaProvider: the summarizer', () => {
  it('sends the instructions as the system prompt and the transcript as data, and returns the summary without its reasoning', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }], chat: (_request, response) => sendJson(response, 200, fixture('chat.json')) });
    const ollama = ollamaProvider({ baseURL: server.url, numCtx: 16_384 });
    const summarizer = ollama.summarizer('qwen3:8b');
    expect(summarizer.id).toBe('ollama:qwen3:8b');
    const summary = await summarizer.summarize({ messages: transcript, instructions: 'Write a structured summary.', maxOutputTokens: 1024 });
    expect(summary.startsWith('## Task\nMake the failing parser test pass.')).toBe(true);
    const sent = JSON.parse(server.requestsTo('/api/chat')[0]?.body ?? '{}') as { messages: { role: string; content: string }[]; stream: boolean; options: Record<string, number> };
    expect(sent.stream).toBe(false);
    expect(sent.options).toEqual({ num_predict: 1024, num_ctx: 16_384 });
    expect(sent.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(sent.messages[0]?.content).toBe('Write a structured summary.');
    expect(sent.messages[1]?.content).toContain('tool call read_file (call_1): {"path":"src/parser.ts"}');
  });

  it('tells its window once the provider knows it', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [{ name: 'qwen3:8b', context_length: 16_384 }] });
    const ollama = ollamaProvider({ baseURL: server.url });
    const summarizer = ollama.summarizer('qwen3:8b');
    await ollama.contextWindow('qwen3:8b');
    await vi.waitFor(() => expect(summarizer.contextWindow).toBe(16_384), { timeout: 10_000 });
  });

  it('fails a summary cut off at its output limit instead of returning half of it', async () => {
    const cut = { ...fixtureJson<Record<string, unknown>>('chat.json'), done_reason: 'length' };
    const server = await ollamaServer({ show: onDisk, loaded: [], chat: (_request, response) => sendJson(response, 200, cut) });
    const summary = ollamaProvider({ baseURL: server.url }).summarizer('qwen3:8b').summarize({ messages: transcript, instructions: 'Summarize.', maxOutputTokens: 64 });
    await expect(summary).rejects.toThrow(/cut off at its output limit \(64 tokens\)/);
  });

  it("takes the summarizer's own timeout over the provider's default, in both directions", async () => {
    const chat = (_request: RecordedRequest, response: import('node:http').ServerResponse) => {
      setTimeout(() => sendJson(response, 200, fixture('chat.json')), 300);
    };
    const server = await ollamaServer({ show: onDisk, loaded: [], chat });
    const ollama = ollamaProvider({ baseURL: server.url, summaryTimeoutMs: 100 });
    await expect(ollama.summarizer('qwen3:8b').summarize({ messages: transcript, instructions: 'Summarize.' })).rejects.toSatisfy((error) => CtxkitError.isInstance(error, 'TIMEOUT'));
    expect(await ollama.summarizer('qwen3:8b', { timeoutMs: 10_000 }).summarize({ messages: transcript, instructions: 'Summarize.' })).toContain('## Task');
  });

  it('stops when the caller aborts', async () => {
    const server = await ollamaServer({ show: onDisk, loaded: [], chat: () => undefined });
    const controller = new AbortController();
    const summary = ollamaProvider({ baseURL: server.url }).summarizer('qwen3:8b').summarize({ messages: transcript, instructions: 'Summarize.', signal: controller.signal });
    controller.abort();
    await expect(summary).rejects.toSatisfy((error) => CtxkitError.isInstance(error, 'ABORTED'));
  });
});
