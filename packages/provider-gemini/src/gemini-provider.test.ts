import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@ctxkit/core';
import { ProviderCallError, readJsonEvents, request, withFallback } from '@ctxkit/provider-utils';
import { fileStore } from '@ctxkit/store';
import { compactionThreshold } from '@ctxkit/threshold';
import { closeTestServers, fixtureReader, refusedURL, runProviderConformance, sendJson, sendStream, startTestServer } from '@ctxkit/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { geminiProvider } from './gemini-provider.ts';
import { geminiUsage } from './gemini-usage.ts';

const fixtures = fixtureReader(import.meta.url);
const fixture = fixtures.text;
const json = (name: string) => fixtures.json<Record<string, unknown>>(name);

afterEach(closeTestServers);

const messages: Message[] = [
  { role: 'user', content: 'Migrate the settings page' },
  { role: 'assistant', content: 'Looking at the form.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"settings.tsx"}' }] },
  { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'export function Settings() {}' },
];

/** A Gemini-like server: models.get with the given limits, generateContent answering per model. */
function geminiLike(models: Record<string, { inputTokenLimit: number; outputTokenLimit: number }>, generate: (model: string) => [number, unknown]) {
  return startTestServer((request, response) => {
    const generateMatch = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(request.path);
    if (generateMatch) {
      const [status, body] = generate(decodeURIComponent(generateMatch[1] ?? ''));
      return sendJson(response, status, body as object);
    }
    const modelMatch = /^\/v1beta\/models\/([^/:]+)$/.exec(request.path);
    const info = modelMatch && models[decodeURIComponent(modelMatch[1] ?? '')];
    if (!info) return sendJson(response, 404, { error: { code: 404, message: 'models/x is not found for API version v1beta', status: 'NOT_FOUND' } });
    return sendJson(response, 200, { ...json('model.json'), name: `models/${modelMatch?.[1]}`, ...info });
  });
}

describe('geminiProvider windows', () => {
  it('discovers inputTokenLimit and outputTokenLimit from models.get, per model, with the API key header', async () => {
    const server = await geminiLike({ 'gemini-2.5-flash': { inputTokenLimit: 1_048_576, outputTokenLimit: 65_536 }, 'gemma-3-27b-it': { inputTokenLimit: 131_072, outputTokenLimit: 8_192 } }, () => [
      200,
      {},
    ]);
    const gemini = geminiProvider({ apiKey: 'g-key', baseURL: `${server.url}/v1beta` });
    expect(await gemini.contextWindow('gemini-2.5-flash')).toEqual({ contextWindow: 1_048_576, maxOutputTokens: 65_536, source: 'discovered' });
    expect(await gemini.contextWindow('models/gemma-3-27b-it')).toEqual({ contextWindow: 131_072, maxOutputTokens: 8_192, source: 'discovered' });
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe('g-key');
    expect(server.requests.map((entry) => entry.path)).toEqual(['/v1beta/models/gemini-2.5-flash', '/v1beta/models/gemma-3-27b-it']);
  });

  it('answers from the catalog when the model is unknown to the endpoint or the endpoint is down, then the default', async () => {
    const server = await geminiLike({}, () => [200, {}]);
    expect(await geminiProvider({ apiKey: 'k', baseURL: `${server.url}/v1beta` }).contextWindow('gemini-2.0-flash')).toMatchObject({ source: 'catalog' });
    const down = geminiProvider({ apiKey: 'k', baseURL: `${await refusedURL()}/v1beta` });
    expect(await down.contextWindow('gemini-2.5-pro')).toMatchObject({ contextWindow: 1_048_576, source: 'catalog' });
    expect(await down.contextWindow('gemini-9-ultra')).toEqual({ contextWindow: 32_768, source: 'default' });
  });
});

runProviderConformance({
  name: 'geminiProvider',
  create: (settings) => geminiProvider({ apiKey: 'k', ...settings }),
  apiPath: '/v1beta',
  model: 'gemini-2.5-flash',
  serve: () => geminiLike({ 'gemini-2.5-flash': { inputTokenLimit: 1_048_576, outputTokenLimit: 65_536 } }, () => [200, {}]),
  discovered: { contextWindow: 1_048_576, maxOutputTokens: 65_536, source: 'discovered' },
  undiscovered: { contextWindow: 1_048_576, maxOutputTokens: 65_536, source: 'catalog' },
  cutShort: { discovery: '{"name":"models/gemini-2.5-flash","inputTokenLimit":', answer: '{"candidates":[{"content":' },
  callError: ProviderCallError,
  fileStore,
});

describe('geminiProvider usage', () => {
  it('reads promptTokenCount with cached content reported apart', () => {
    expect(geminiUsage(json('generate-content.json'))).toEqual({ inputTokens: 10_458, cachedInputTokens: 8_192, outputTokens: 38 });
    expect(geminiUsage({ usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, thoughtsTokenCount: 90 } })).toEqual({ inputTokens: 100, outputTokens: 100 });
    expect(geminiProvider().usage({ candidates: [] })).toBeUndefined();
  });

  it('reads a real streamGenerateContent SSE stream: the last chunk has the output count', async () => {
    const server = await startTestServer((_request, response) => sendStream(response, fixture('stream.sse').split(/(?<=\n\n)/)));
    const open = await request(`${server.url}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, { provider: 'gemini', body: {} });
    const chunks: unknown[] = [];
    for await (const event of readJsonEvents(open.body, { provider: 'gemini' })) chunks.push(event.data);
    expect(chunks).toHaveLength(3);
    expect(geminiUsage(chunks[0])).toEqual({ inputTokens: 4_021 });
    expect(geminiUsage(chunks)).toEqual({ inputTokens: 4_021, cachedInputTokens: 2_048, outputTokens: 5 });
  });
});

describe('geminiProvider summarizer and errors', () => {
  it('calls generateContent with the instructions as systemInstruction and the transcript as one user turn', async () => {
    const server = await geminiLike({}, () => [200, json('generate-content.json')]);
    const summary = await geminiProvider({ apiKey: 'k', baseURL: `${server.url}/v1beta` })
      .summarizer('gemini-2.5-flash')
      .summarize({ messages, instructions: 'Use the template.', maxOutputTokens: 1_000 });
    expect(summary).toBe('## Task\nMigrate the settings page to the new form library.\n## Done\nRead settings.tsx and form.ts.\n## Next steps\nReplace the submit handler.');
    const body = server.requests.find((entry) => entry.path.endsWith(':generateContent'))?.json as {
      systemInstruction: { parts: { text: string }[] };
      contents: { role: string; parts: { text: string }[] }[];
      generationConfig: { maxOutputTokens: number };
    };
    expect(body.systemInstruction.parts[0]?.text).toBe('Use the template.');
    expect(body.contents).toHaveLength(1);
    expect(body.contents[0]?.parts[0]?.text).toContain('tool call read_file (c1): {"path":"settings.tsx"}');
    expect(body.generationConfig.maxOutputTokens).toBe(1_000);
  });

  it('classifies overflow (and learns it), quota with RetryInfo and overload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-gemini-'));
    const overflowing = await geminiLike({}, () => [400, json('error-token-count.json')]);
    const gemini = geminiProvider({ apiKey: 'k', baseURL: `${overflowing.url}/v1beta`, store: fileStore(dir) });
    const call = async (url: string) =>
      geminiProvider({ apiKey: 'k', baseURL: `${url}/v1beta` })
        .summarizer('gemini-2.5-flash')
        .summarize({ messages, instructions: 'x' })
        .then(
          () => expect.unreachable('the call resolved; it must reject'),
          (caught: unknown) => caught,
        );
    const overflow = await gemini
      .summarizer('tuned-model-7')
      .summarize({ messages, instructions: 'x' })
      .then(
        () => expect.unreachable('the call resolved; it must reject'),
        (caught: unknown) => caught,
      );
    expect(gemini.classifyError(overflow)).toMatchObject({ kind: 'context_overflow', reportedTokens: 1_200_293, limitTokens: 1_048_576 });
    expect(await geminiProvider({ apiKey: 'k', baseURL: `${overflowing.url}/v1beta`, store: fileStore(dir) }).contextWindow('tuned-model-7')).toEqual({ contextWindow: 1_048_576, source: 'learned' });

    const quota = await geminiLike({}, () => [429, json('error-resource-exhausted.json')]);
    expect(gemini.classifyError(await call(quota.url))).toMatchObject({ kind: 'rate_limit', retryAfterMs: 16_000, limitTokens: 250_000, retryable: true, fallback: true });
    const overloaded = await geminiLike({}, () => [503, json('error-unavailable.json')]);
    expect(gemini.classifyError(await call(overloaded.url))).toMatchObject({ kind: 'rate_limit', status: 503 });
  });

  it('a fallback to a model with another window changes the threshold', async () => {
    const server = await geminiLike({ 'gemini-2.5-pro': { inputTokenLimit: 1_048_576, outputTokenLimit: 65_536 }, 'gemma-3-4b-it': { inputTokenLimit: 32_768, outputTokenLimit: 8_192 } }, (model) =>
      model === 'gemini-2.5-pro' ? [429, json('error-resource-exhausted.json')] : [200, json('generate-content.json')],
    );
    const gemini = geminiProvider({ apiKey: 'k', baseURL: `${server.url}/v1beta` });
    // the quota asks for a 16 s wait: longer than this chain waits, so it moves on at once
    const chain = withFallback(
      [
        { provider: gemini, model: 'gemini-2.5-pro' },
        { provider: gemini, model: 'gemma-3-4b-it' },
      ],
      { maxRetryDelayMs: 1_000 },
    );
    const thresholds: number[] = [];
    const { target } = await chain.run(async ({ provider, model, contextWindow }) => {
      const limits = await contextWindow();
      thresholds.push(compactionThreshold(limits.contextWindow, limits.maxOutputTokens ?? 0));
      return provider.summarizer?.(model).summarize({ messages, instructions: 'x' });
    });
    expect(target.model).toBe('gemma-3-4b-it');
    expect(thresholds).toEqual([128_000, 16_384]);
  });
});
