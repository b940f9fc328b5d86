import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CtxkitError, memoryStore } from '@ctxkit/core';
import { closeTestServers, sendJson, startTestServer, type TestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHostedProvider, type HostedDiscoveryContext, type HostedProviderOptions } from './hosted-provider.ts';
import { requestJson } from './http.ts';
import { modelCatalog } from './model-catalog.ts';
import { ProviderCallError } from './provider-call-error.ts';

afterEach(async () => {
  await closeTestServers();
  delete process.env.CTXKIT_TEST_API_KEY;
  delete process.env.CTXKIT_TEST_OTHER_KEY;
});

const builtIn = modelCatalog({ 'big-model': { contextWindow: 200_000, maxOutputTokens: 64_000 } });

/** A hosted API: `GET /v1/models/<id>` with `context` and `output`, `POST /v1/complete` answering `{ text }`. */
async function apiServer(models: Record<string, { context: number; output?: number }> = {}): Promise<TestServer> {
  return startTestServer((request, response) => {
    const model = /^\/v1\/models\/(.+)$/.exec(request.path)?.[1];
    if (model !== undefined) {
      const found = models[decodeURIComponent(model)];
      return found ? sendJson(response, 200, found) : sendJson(response, 404, { error: 'not found' });
    }
    if (request.path === '/v1/complete') return sendJson(response, 200, { text: `summary of ${(request.json as { model: string }).model}` });
    sendJson(response, 404, { error: 'no route' });
  });
}

function myApiProvider<const Id extends string = 'my-api'>(
  options: HostedProviderOptions<Id> = {},
  spec: { discoveryByDefault?: boolean; keyOptional?: boolean } = {},
  seen: HostedDiscoveryContext[] = [],
) {
  return createHostedProvider({
    id: 'my-api' as Id,
    defaultBaseURL: 'http://127.0.0.1:9/v1',
    options,
    apiKeyVariables: ['CTXKIT_TEST_API_KEY', 'CTXKIT_TEST_OTHER_KEY'],
    authorize: (apiKey) => ({ authorization: `Bearer ${apiKey}`, 'api-version': '2' }),
    catalog: builtIn,
    ...(spec.discoveryByDefault === undefined ? {} : { discoveryByDefault: spec.discoveryByDefault }),
    discover: async (context) => {
      seen.push(context);
      const found = await requestJson<{ context: number; output?: number }>(
        `${context.baseURL}/models/${encodeURIComponent(context.model)}`,
        context.call(spec.keyOptional ? { keyOptional: true } : {}),
      ).catch(() => undefined);
      return found && { contextWindow: found.context, ...(found.output ? { maxOutputTokens: found.output } : {}) };
    },
    usage: (response) => ({ inputTokens: (response as { used: number }).used }),
    complete: async ({ baseURL, model, request, call }) => (await requestJson<{ text: string }>(`${baseURL}/complete`, { ...call, body: { model, system: request.system } })).text,
  });
}

describe('createHostedProvider', () => {
  it('discovers windows with the key, the API headers and the caller headers, at the base URL without its trailing slash', async () => {
    const server = await apiServer({ 'small-model': { context: 16_384, output: 4_096 } });
    const seen: HostedDiscoveryContext[] = [];
    const provider = myApiProvider({ apiKey: 'k1', baseURL: `${server.url}/v1/`, headers: { 'x-team': 'a' }, timeoutMs: 4_321 }, {}, seen);
    expect(provider).toMatchObject({ id: 'my-api', kind: 'provider', specificationVersion: 'v1' });
    expect(await provider.contextWindow('small-model')).toEqual({ contextWindow: 16_384, maxOutputTokens: 4_096, source: 'discovered' });
    expect(server.requestsTo('/v1/models/small-model')[0]?.headers).toMatchObject({ authorization: 'Bearer k1', 'api-version': '2', 'x-team': 'a' });
    expect(seen[0]).toMatchObject({ provider: 'my-api', baseURL: `${server.url}/v1`, model: 'small-model', stored: undefined });
    expect(seen[0]?.call()).toMatchObject({ provider: 'my-api', timeoutMs: 4_321, signal: seen[0]?.signal });
  });

  it("answers from the user's catalog, then the built-in one, then the default, and configured windows win", async () => {
    const server = await apiServer();
    const provider = myApiProvider({
      apiKey: 'k',
      baseURL: `${server.url}/v1`,
      catalog: (model) => (model === 'mine' ? { contextWindow: 50_000 } : undefined),
      windows: { pinned: 12_000 },
      defaultWindow: 8_192,
    });
    expect(await provider.contextWindow('mine')).toEqual({ contextWindow: 50_000, source: 'catalog' });
    expect(await provider.contextWindow('big-model-2025-01-01')).toEqual({ contextWindow: 200_000, maxOutputTokens: 64_000, source: 'catalog' });
    expect(await provider.contextWindow('nobody-knows')).toEqual({ contextWindow: 8_192, source: 'default' });
    expect(await provider.contextWindow('pinned')).toEqual({ contextWindow: 12_000, source: 'configured' });
  });

  it('reads the key at call time, from the variables in order; without one, discovery reports it and the catalog answers', async () => {
    const server = await apiServer({ 'big-model': { context: 100_000 } });
    const errors: unknown[] = [];
    const provider = myApiProvider({ baseURL: `${server.url}/v1`, onError: (error) => errors.push(error) });
    expect(await provider.contextWindow('big-model')).toMatchObject({ contextWindow: 200_000, source: 'catalog' });
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000 });
    expect(String(errors[0])).toContain('[ctxkit:my-api] no API key: pass apiKey or set CTXKIT_TEST_API_KEY (or CTXKIT_TEST_OTHER_KEY)');
    expect(server.requests).toEqual([]);
    process.env.CTXKIT_TEST_OTHER_KEY = 'from-env';
    expect(await provider.summarizer('big-model').summarize({ messages: [{ role: 'user', content: 'hi' }], instructions: 'Summarize.' })).toBe('summary of big-model');
    expect(server.requestsTo('/v1/complete')[0]?.headers.authorization).toBe('Bearer from-env');
  });

  it('sends no key where the discovery says it is optional', async () => {
    const server = await apiServer({ 'open-model': { context: 65_536 } });
    const provider = myApiProvider({ baseURL: `${server.url}/v1` }, { keyOptional: true });
    expect(await provider.contextWindow('open-model')).toMatchObject({ contextWindow: 65_536, source: 'discovered' });
    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('asks nothing where discovery is off by default, unless the user turns it on', async () => {
    const server = await apiServer({ 'big-model': { context: 100_000 } });
    const off = myApiProvider({ apiKey: 'k', baseURL: `${server.url}/v1` }, { discoveryByDefault: false });
    expect(await off.contextWindow('big-model')).toMatchObject({ source: 'catalog' });
    expect(await myApiProvider({ apiKey: 'k', baseURL: `${server.url}/v1`, discovery: false }).contextWindow('big-model')).toMatchObject({ source: 'catalog' });
    expect(server.requests).toEqual([]);
    const on = myApiProvider({ apiKey: 'k', baseURL: `${server.url}/v1`, discovery: true }, { discoveryByDefault: false });
    expect(await on.contextWindow('big-model')).toEqual({ contextWindow: 100_000, source: 'discovered' });
  });

  it('keeps windows under its own id, so two accounts of one API do not share them', async () => {
    const store = memoryStore();
    const first = await apiServer({ shared: { context: 100_000 } });
    const second = await apiServer({ shared: { context: 30_000 } });
    const work = myApiProvider({ id: 'my-api-work', apiKey: 'k', baseURL: `${first.url}/v1`, store });
    const home = myApiProvider({ apiKey: 'k', baseURL: `${second.url}/v1`, store });
    expect(work.id).toBe('my-api-work');
    expect((await work.contextWindow('shared')).contextWindow).toBe(100_000);
    expect((await home.contextWindow('shared')).contextWindow).toBe(30_000);
    expect(work.summarizer('shared').id).toBe('my-api-work:shared');
  });

  it('uses the fetch it is given', async () => {
    const calls: string[] = [];
    const provider = myApiProvider({
      apiKey: 'k',
      fetch: async (url) => {
        calls.push(String(url));
        return new Response(JSON.stringify({ context: 9_000 }), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    expect(await provider.contextWindow('any')).toMatchObject({ contextWindow: 9_000, source: 'discovered' });
    expect(calls).toEqual(['http://127.0.0.1:9/v1/models/any']);
  });

  it('rejects a discovery deadline that is not a number of milliseconds above zero, saying what it got', () => {
    for (const [value, said] of [
      [0, 'got 0'],
      [-1, 'got -1'],
      [Number.NaN, 'got NaN'],
      [Number.POSITIVE_INFINITY, 'got Infinity'],
      ['5000', 'got the string "5000"'],
    ] as const) {
      expect(() => myApiProvider({ discoveryDeadlineMs: value as number })).toThrow(`discoveryDeadlineMs must be a finite number above zero, ${said}`);
    }
  });

  it('rejects a bad id or default window', () => {
    expect(() => myApiProvider({ id: 'my api' })).toThrow(`[ctxkit:my-api] id must be a name of letters, digits, '.', '_' or '-', got "my api"`);
    expect(() => myApiProvider({ defaultWindow: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('defaultWindow must be a finite number above zero, got 0') }),
    );
  });
});

describe('createHostedProvider: answers of another shape', () => {
  it('reports a models list of another shape as a malformed ProviderCallError naming the base URL, not a bare TypeError', async () => {
    const server = await startTestServer((_request, response) => sendJson(response, 200, { data: { id: 'not a list' } }));
    const errors: unknown[] = [];
    const provider = createHostedProvider({
      id: 'my-api',
      defaultBaseURL: `${server.url}/v1`,
      options: { apiKey: 'k', onError: (error) => errors.push(error) },
      apiKeyVariables: 'CTXKIT_TEST_API_KEY',
      authorize: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
      discover: async ({ baseURL, model, call }) => {
        const listed = (await requestJson<{ data: { id: string; context_length: number }[] }>(`${baseURL}/models`, call())).data.find((entry) => entry.id === model);
        return listed && { contextWindow: listed.context_length };
      },
      usage: () => undefined,
    });
    expect(await provider.contextWindow('some/model')).toEqual({ contextWindow: 32_768, source: 'default' });
    const [error] = errors;
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ failure: 'malformed', url: `${server.url}/v1` });
    expect((error as Error).message).toMatch(/answered the discovery of some\/model in a shape it does not have \(.*find is not a function\)$/);
  });
});

describe('createHostedProvider: a server that accepts and never answers', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reports the discovery deadline as a TIMEOUT naming provider, model and the URL it waited on', async () => {
    const server = createServer(() => undefined); // reads the request, never writes a byte
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const errors: unknown[] = [];
    const provider = createHostedProvider({
      id: 'my-api',
      defaultBaseURL: baseURL,
      // The request's own timeout is far off: the window cache's deadline ends the discovery.
      options: { apiKey: 'k', timeoutMs: 60_000, discoveryDeadlineMs: 50, onError: (error) => errors.push(error) },
      apiKeyVariables: 'CTXKIT_TEST_API_KEY',
      authorize: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
      discover: async ({ baseURL: root, model, call }) => ({ contextWindow: (await requestJson<{ context: number }>(`${root}/models/${model}`, call())).context }),
      usage: () => undefined,
    });
    expect(await provider.windows.refresh('slow-model')).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(CtxkitError.isInstance(errors[0], 'TIMEOUT')).toBe(true);
    expect(errors[0]).toMatchObject({ failure: 'timeout', url: `${baseURL}/models/slow-model` });
    expect((errors[0] as Error).message).toBe(`[ctxkit:my-api] discovery of slow-model gave no answer within 50 ms: ${baseURL}/models/slow-model did not answer`);
  });
});
