import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CtxkitError, type ErrorClassification, type Message, type ModelLimits, type StorePlugin, type SummarizerPlugin } from '@ctxkit/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeTestServers, type RecordedRequest, refusedURL, sendJson, startTestServer, type TestServer } from './test-server.ts';

/** The provider members the suite calls: the `ProviderPlugin` contract with its summarizer present. */
export interface ConformingProvider {
  contextWindow(model: string, options?: { signal?: AbortSignal }): Promise<ModelLimits>;
  classifyError(error: unknown, context?: { model?: string }): ErrorClassification;
  summarizer(model: string, options?: { timeoutMs?: number }): SummarizerPlugin;
}

/** What the suite asks of a provider it makes: where to call, and the few settings it varies. */
export interface ProviderConformanceSettings {
  /** The test server's URL (`http://127.0.0.1:port`); a hosted provider appends its API path. */
  baseURL: string;
  /** Where windows persist; the provider's default store when absent. */
  store?: StorePlugin;
  /** Receives discovery failures. */
  onError?: (error: unknown, model: string) => void;
  /** Short deadlines for the discovery-failure checks: give up waiting after 50 ms, abandon a request after 200 ms. */
  quick?: boolean;
  /** The provider's own default summary timeout, in milliseconds, when the suite sets one. */
  summaryTimeoutMs?: number;
}

/** Options for {@link runProviderConformance}. */
export interface ProviderConformanceOptions {
  /** Names the suite: `vllmProvider`. */
  name: string;
  /** Makes the provider under test from the suite's settings (mapping `quick` and `summaryTimeoutMs` to its own options). */
  create(settings: ProviderConformanceSettings): ConformingProvider;
  /** A model the server of {@link ProviderConformanceOptions.serve} serves. */
  model: string;
  /** Starts a 127.0.0.1 server answering the provider's discovery for `model` in its own wire format (recorded bodies). */
  serve(): Promise<TestServer>;
  /** The limits the provider reads from that server for `model`. */
  discovered: ModelLimits;
  /** The limits the provider answers for `model` when discovery fails: its catalog's, or the default. */
  undiscovered: ModelLimits;
  /** Bodies cut short: what the discovery endpoint answers (a text, or one per request), and what a summary call answers. */
  cutShort: { discovery: string | ((request: RecordedRequest) => string); answer: string };
  /** Recognizes the provider call error that carries `failure` (pass provider-utils' `ProviderCallError`). */
  callError: { isInstance(error: unknown): boolean };
  /** True for a provider that asks its server again on every call (a local server): the restart check then also expects the closed server reported. @default false */
  refreshesOnEveryCall?: boolean;
  /** A model the server also has, with what a restarted provider answers for it with the server down. */
  neverSeen?: { model: string; limits: ModelLimits };
  /** Makes a store over files under `dir` (pass @ctxkit/store's `fileStore`), so a window can outlive its provider. */
  fileStore(dir: string): StorePlugin;
}

const transcript: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Make the failing parser test pass.' },
  { role: 'assistant', content: 'Reading the parser.' },
];

interface ReportedError {
  error: unknown;
  model: string;
}

function failureOf(options: ProviderConformanceOptions, error: unknown): unknown {
  return options.callError.isInstance(error) ? (error as { failure?: unknown }).failure : undefined;
}

function summarize(provider: ConformingProvider, model: string, timeoutMs?: number): Promise<unknown> {
  return provider
    .summarizer(model, timeoutMs === undefined ? {} : { timeoutMs })
    .summarize({ messages: transcript, instructions: 'Summarize.' })
    .catch((failure: unknown) => failure);
}

async function checkRestart(options: ProviderConformanceOptions, folders: string[]): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-provider-conformance-'));
  folders.push(folder);
  const server = await options.serve();
  expect(await options.create({ baseURL: server.url, store: options.fileStore(folder) }).contextWindow(options.model)).toEqual(options.discovered);
  await server.close();
  const reported: ReportedError[] = [];
  const restarted = options.create({ baseURL: server.url, store: options.fileStore(folder), onError: (error, model) => reported.push({ error, model }) });
  expect(await restarted.contextWindow(options.model)).toEqual(options.discovered);
  if (options.refreshesOnEveryCall) {
    // The background refresh met the closed port and said so, without changing the answer.
    await vi.waitFor(() => expect(reported.some(({ error }) => failureOf(options, error) === 'offline')).toBe(true));
    expect(await restarted.contextWindow(options.model)).toEqual(options.discovered);
  }
  // Another model the store never saw gets what the provider answers knowing nothing, not a neighbour's window.
  if (options.neverSeen) expect(await restarted.contextWindow(options.neverSeen.model)).toEqual(options.neverSeen.limits);
}

async function checkDiscoveryFailures(options: ProviderConformanceOptions): Promise<void> {
  const { cutShort } = options;
  const hang = await startTestServer(() => undefined);
  const garbled = await startTestServer((request, response) => sendJson(response, 200, typeof cutShort.discovery === 'string' ? cutShort.discovery : cutShort.discovery(request)));
  for (const [baseURL, failure, kind] of [
    [await refusedURL(), 'offline', 'offline'],
    [hang.url, 'timeout', 'timeout'],
    [garbled.url, 'malformed', undefined],
  ] as const) {
    const reported: ReportedError[] = [];
    const provider = options.create({ baseURL, quick: true, onError: (error, model) => reported.push({ error, model }) });
    expect(await provider.contextWindow(options.model)).toEqual(options.undiscovered);
    await vi.waitFor(() => expect(reported.some(({ error }) => failureOf(options, error) === failure)).toBe(true));
    const first = reported.find(({ error }) => failureOf(options, error) === failure);
    expect(first?.model).toBe(options.model);
    if (failure === 'timeout') expect(CtxkitError.isInstance(first?.error, 'TIMEOUT')).toBe(true);
    if (kind) expect(provider.classifyError(first?.error)).toMatchObject({ kind, fallback: true });
  }
}

async function checkSummaryTimeouts(options: ProviderConformanceOptions): Promise<void> {
  const hang = await startTestServer(() => undefined);
  // The provider's own default, and the summarizer's option: each bounds a call that never answers.
  for (const [provider, timeoutMs] of [
    [options.create({ baseURL: hang.url, summaryTimeoutMs: 150 }), undefined],
    [options.create({ baseURL: hang.url }), 100],
  ] as const) {
    const error = await summarize(provider, options.model, timeoutMs);
    expect(CtxkitError.isInstance(error, 'TIMEOUT')).toBe(true);
    expect(provider.classifyError(error)).toMatchObject({ kind: 'timeout', fallback: true });
  }
}

async function checkSummaryFailures(options: ProviderConformanceOptions): Promise<void> {
  const refused = options.create({ baseURL: await refusedURL() });
  const offline = await summarize(refused, options.model);
  expect(CtxkitError.isInstance(offline)).toBe(true);
  expect(refused.classifyError(offline)).toMatchObject({ kind: 'offline', fallback: true });

  const garbled = await startTestServer((_request, response) => sendJson(response, 200, options.cutShort.answer));
  const broken = options.create({ baseURL: garbled.url });
  const malformed = await summarize(broken, options.model);
  expect(CtxkitError.isInstance(malformed)).toBe(true);
  expect(failureOf(options, malformed)).toBe('malformed');
  expect(broken.classifyError(malformed)).toMatchObject({ kind: 'other', fallback: true });
}

/**
 * The edge cases every provider meets the same way, as one vitest suite a provider package runs with its
 * factory (as unstorage's drivers run `testDriver`), always against real HTTP servers on 127.0.0.1:
 * a discovered window outlives the provider through a file store, also with the server down; a refused
 * connection, a hang and a body cut short each leave the provider answering what it knows and reporting
 * why (the model named, the failure typed and classified); the summarizer is bounded by its provider's
 * timeout and by its own, and a refused connection or a body cut short fails it with a classified error.
 * @example
 * ```ts
 * runProviderConformance({
 *   name: 'vllmProvider',
 *   create: ({ quick, ...settings }) => vllmProvider({ ...settings, ...(quick ? { discoveryTimeoutMs: 50, requestTimeoutMs: 200 } : {}) }),
 *   model: coder,
 *   serve: () => vllmServer({ models: served() }),
 *   discovered: { contextWindow: 32_768, source: 'discovered' },
 *   undiscovered: { contextWindow: 4096, source: 'default' },
 *   cutShort: { discovery: '{"object":"list","data":[{"id":', answer: '{"id":"chatcmpl-1","choices":[' },
 *   callError: ProviderCallError,
 *   fileStore,
 * });
 * ```
 */
export function runProviderConformance(options: ProviderConformanceOptions): void {
  const folders: string[] = [];
  describe(`${options.name}: provider conformance`, () => {
    afterEach(async () => {
      await closeTestServers();
      for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    });

    it('keeps a discovered window across a restart, over a file store, with the server down', () => checkRestart(options, folders));

    it('answers with what it knows on a refused connection, a hang, or a body that is not JSON, and reports why', () => checkDiscoveryFailures(options));

    it("bounds a summary that never comes by the provider's timeout and by the summarizer's own, classified as a timeout", () => checkSummaryTimeouts(options));

    it('fails a summary on a refused connection and on malformed JSON, each classified', () => checkSummaryFailures(options));
  });
}
