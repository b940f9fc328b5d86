import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CtxkitError, type Message } from '@ctxkit/core';
import { fileStore } from '@ctxkit/store';
import { closeTestServers, type RecordedRequest, refusedURL, sendJson, startTestServer, type TestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestJson } from './http.ts';
import { createLocalProvider, type LocalDiscoveryContext, type LocalServerOptions } from './local-provider.ts';
import { completeWithChatCompletions, openaiCompatibleUsage } from './openai-compatible.ts';
import { ProviderCallError } from './provider-call-error.ts';

const folders: string[] = [];
afterEach(async () => {
  await closeTestServers();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-local-'));
  folders.push(folder);
  return folder;
}

/** A small local model server: `GET /props?model=` answers the slot context; chat completions as given. */
interface ServerState {
  windows: Record<string, number>;
  chat?: (request: RecordedRequest, response: import('node:http').ServerResponse) => void | Promise<void>;
  /** Holds /props until resolved: a slow server. */
  gate?: Promise<void>;
}

async function modelServer(state: ServerState): Promise<TestServer> {
  return startTestServer(async (request, response) => {
    if (request.path === '/props') {
      await state.gate;
      const window = state.windows[request.url.searchParams.get('model') ?? ''];
      return window ? sendJson(response, 200, { n_ctx: window }) : sendJson(response, 404, { error: { message: 'model not found' } });
    }
    if (request.path === '/v1/chat/completions' && state.chat) return state.chat(request, response);
    sendJson(response, 404, { error: { message: 'File Not Found' } });
  });
}

function myServerProvider<const Id extends string = 'my-server'>(options: LocalServerOptions<Id> = {}, seen: LocalDiscoveryContext[] = []) {
  return createLocalProvider({
    id: 'my-server' as Id,
    defaultBaseURL: 'http://127.0.0.1:9',
    options,
    discover: async (context) => {
      seen.push(context);
      const props = await requestJson<{ n_ctx: number }>(`${context.root}/props?model=${encodeURIComponent(context.model)}`, context.call);
      // This test server reports a model that is not running with a negative n_ctx: its setting, not what runs.
      return props.n_ctx < 0 ? { contextWindow: -props.n_ctx, tentative: true } : { contextWindow: props.n_ctx };
    },
    usage: openaiCompatibleUsage,
    complete: completeWithChatCompletions,
  });
}

const transcript: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make the failing parser test pass.' },
];
const completion = (content: string) => ({ choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }], usage: { prompt_tokens: 120, completion_tokens: 8 } });

describe('createLocalProvider: windows', () => {
  it('asks the server at its root, with the key, the headers and the discovery timeout', async () => {
    const server = await modelServer({ windows: { 'qwen3-8b': 16_384 } });
    const seen: LocalDiscoveryContext[] = [];
    const provider = myServerProvider({ baseURL: `${server.url}/v1/`, apiKey: 'secret', headers: { 'x-team': 'a' }, requestTimeoutMs: 1_234 }, seen);
    expect(provider).toMatchObject({ id: 'my-server', kind: 'provider', baseURL: server.url });
    expect(await provider.contextWindow('qwen3-8b')).toEqual({ contextWindow: 16_384, source: 'discovered' });
    expect(server.requestsTo('/props')[0]?.headers).toMatchObject({ authorization: 'Bearer secret', 'x-team': 'a' });
    expect(seen[0]).toMatchObject({ provider: 'my-server', root: server.url, model: 'qwen3-8b', defaultContextWindow: 4_096 });
    expect(seen[0]?.call).toMatchObject({ provider: 'my-server', timeoutMs: 1_234, headers: { authorization: 'Bearer secret', 'x-team': 'a' } });
    expect(seen[0]?.call.signal).toBe(seen[0]?.signal);
  });

  it('answers 4,096 while nothing is known and the server is down, and says why', async () => {
    const errors: unknown[] = [];
    const provider = myServerProvider({ baseURL: await refusedURL(), onError: (error, model) => errors.push([model, error]) });
    expect(await provider.contextWindow('qwen3-8b')).toEqual({ contextWindow: 4_096, source: 'default' });
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000 });
    expect(provider.classifyError((errors[0] as [string, unknown])[1])).toMatchObject({ kind: 'offline', fallback: true });
  });

  it('asks again on every call in the background, and follows a reload with another context', async () => {
    const state: ServerState = { windows: { 'qwen3-8b': 16_384 } };
    const provider = myServerProvider({ baseURL: (await modelServer(state)).url });
    expect((await provider.contextWindow('qwen3-8b')).contextWindow).toBe(16_384);
    state.windows['qwen3-8b'] = 32_768;
    await vi.waitFor(async () => expect((await provider.contextWindow('qwen3-8b')).contextWindow).toBe(32_768), { timeout: 10_000 });
  });

  it('keeps the window stored while the model ran over a tentative answer (a setting or a default), not over a real one', async () => {
    const store = fileStore(temporaryFolder());
    const state: ServerState = { windows: { 'qwen3-8b': 16_384 } };
    const server = await modelServer(state);
    expect((await myServerProvider({ baseURL: server.url, store }).contextWindow('qwen3-8b')).contextWindow).toBe(16_384);
    // The model unloads: the server now only knows its setting, reported as tentative (a negative n_ctx here).
    state.windows['qwen3-8b'] = -4_096;
    const restarted = myServerProvider({ baseURL: server.url, store });
    expect(await restarted.windows.refresh('qwen3-8b')).toEqual({ contextWindow: 16_384, source: 'discovered' });
    expect(await myServerProvider({ baseURL: server.url }).windows.refresh('qwen3-8b')).toEqual({ contextWindow: 4_096, source: 'discovered' });
    // Loaded again with another context: a real answer replaces what was stored.
    state.windows['qwen3-8b'] = 32_768;
    expect(await restarted.windows.refresh('qwen3-8b')).toEqual({ contextWindow: 32_768, source: 'discovered' });
  });

  it('gives a lookup racing another (the summarizer looks its window up when made) the discovered window', async () => {
    let open: () => void = () => undefined;
    const state: ServerState = { windows: { 'qwen3-8b': 16_384 }, gate: new Promise<void>((resolve) => (open = resolve)) };
    const server = await modelServer(state);
    const provider = myServerProvider({ baseURL: server.url });
    provider.summarizer('qwen3-8b');
    const lookup = provider.contextWindow('qwen3-8b');
    await vi.waitFor(() => expect(server.requestsTo('/props')).toHaveLength(1), { timeout: 10_000 });
    open();
    expect(await lookup).toEqual({ contextWindow: 16_384, source: 'discovered' });
    expect(server.requestsTo('/props')).toHaveLength(1);
  });

  it('keeps the windows of two servers apart in one store, and path-like ids across a restart with the server down', async () => {
    const folder = temporaryFolder();
    const path = '../models/Qwen3-8B-Q4_K_M.gguf';
    const small = await modelServer({ windows: { [path]: 8_192 } });
    const large = await modelServer({ windows: { [path]: 40_960 } });
    expect((await myServerProvider({ baseURL: small.url, store: fileStore(folder) }).contextWindow(path)).contextWindow).toBe(8_192);
    expect((await myServerProvider({ baseURL: large.url, store: fileStore(folder) }).contextWindow(path)).contextWindow).toBe(40_960);
    expect(readdirSync(folder)).toEqual(['windows']);
    await small.close();
    expect(await myServerProvider({ baseURL: small.url, store: fileStore(folder) }).contextWindow(path)).toEqual({ contextWindow: 8_192, source: 'discovered' });
  });

  it('learns a stated limit when classifyError is told the model', async () => {
    const provider = myServerProvider({ baseURL: (await modelServer({ windows: { 'qwen3-8b': 16_384 } })).url });
    await provider.contextWindow('qwen3-8b');
    const stated = { status: 400, body: '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, you requested 9304 tokens."}}' };
    expect(provider.classifyError(stated, { model: 'qwen3-8b' })).toMatchObject({ kind: 'context_overflow', limitTokens: 8_192, provider: 'my-server' });
    await vi.waitFor(async () => expect(await provider.contextWindow('qwen3-8b')).toEqual({ contextWindow: 8_192, source: 'learned' }), { timeout: 10_000 });
  });

  it('rejects a bad baseURL, id or number option, naming it', () => {
    expect(() => myServerProvider({ baseURL: 'ftp://127.0.0.1:9' })).toThrow('[ctxkit:my-server] baseURL "ftp://127.0.0.1:9" must use http or https');
    expect(() => myServerProvider({ baseURL: '127.0.0.1:9' })).toThrow(/baseURL "127\.0\.0\.1:9" is not a URL/);
    expect(() => myServerProvider({ id: 'two words' })).toThrow(`[ctxkit:my-server] id must be a name of letters, digits, '.', '_' or '-', got "two words"`);
    expect(() => myServerProvider({ defaultContextWindow: 0 })).toThrow('defaultContextWindow must be a finite number above zero, got 0');
    expect(() => myServerProvider({ requestTimeoutMs: Number.NaN })).toThrow(/requestTimeoutMs/);
    expect(() => myServerProvider({ discoveryTimeoutMs: -1 })).toThrow('discoveryTimeoutMs must be a finite number of zero or more, got -1');
    expect(myServerProvider({ discoveryTimeoutMs: 0 }).id).toBe('my-server');
  });
});

describe('createLocalProvider: the summarizer', () => {
  it('returns the answer without a leading reasoning block, and reads usage from the reply', async () => {
    const server = await modelServer({ windows: {}, chat: (_request, response) => sendJson(response, 200, completion('<think>The user wants a summary.</think>\n\n## Task\nFix the parser')) });
    const provider = myServerProvider({ baseURL: server.url });
    expect(await provider.summarizer('qwen3-8b').summarize({ messages: transcript, instructions: 'Summarize.', maxOutputTokens: 256 })).toBe('## Task\nFix the parser');
    expect(server.requestsTo('/v1/chat/completions')[0]?.json).toMatchObject({ model: 'qwen3-8b', max_tokens: 256, stream: false });
    expect(provider.usage(completion('x'))).toEqual({ inputTokens: 120, outputTokens: 8 });
  });

  it('bounds a summary by the summary timeout, not by the discovery timeout, and the caller can lengthen it', async () => {
    const server = await modelServer({ windows: {}, chat: (_request, response) => void setTimeout(() => sendJson(response, 200, completion('## Task\nFix the parser')), 300) });
    const provider = myServerProvider({ baseURL: server.url, requestTimeoutMs: 100, summaryTimeoutMs: 150 });
    const error = await provider
      .summarizer('qwen3-8b')
      .summarize({ messages: transcript, instructions: 'Summarize.' })
      .then(
        () => expect.unreachable('the call resolved; it must reject'),
        (caught: unknown) => caught,
      );
    expect(CtxkitError.isInstance(error, 'TIMEOUT')).toBe(true);
    expect(provider.classifyError(error)).toMatchObject({ kind: 'timeout', fallback: true });
    expect(await provider.summarizer('qwen3-8b', { timeoutMs: 10_000 }).summarize({ messages: transcript, instructions: 'Summarize.' })).toBe('## Task\nFix the parser');
  });
});

describe('createLocalProvider: answers of another shape', () => {
  it('reports a models list of another shape as a malformed ProviderCallError naming the server, not a bare TypeError', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, { data: 'nope' }));
    const errors: unknown[] = [];
    const provider = createLocalProvider({
      id: 'my-server',
      defaultBaseURL: server.url,
      options: { onError: (error) => errors.push(error) },
      discover: async ({ root, model, call }) => {
        const listed = (await requestJson<{ data: { id: string; max_model_len: number }[] }>(`${root}/v1/models`, call)).data.find((entry) => entry.id === model);
        return listed && { contextWindow: listed.max_model_len };
      },
      usage: openaiCompatibleUsage,
      complete: completeWithChatCompletions,
    });
    expect(await provider.contextWindow('qwen3-8b')).toEqual({ contextWindow: 4_096, source: 'default' });
    const [error] = errors;
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ failure: 'malformed', url: server.url });
    expect((error as Error).message).toMatch(new RegExp(`^\\[ctxkit:my-server\\] ${server.url} answered the discovery of qwen3-8b in a shape it does not have \\(.*find is not a function\\)$`));
  });
});
