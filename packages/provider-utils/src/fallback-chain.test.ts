import { CtxkitError, type ProviderPlugin } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.ts';
import { type FallbackSwitch, withFallback } from './fallback-chain.ts';
import { ProviderCallError } from './provider-call-error.ts';

function provider(id: string, contextWindow: number): ProviderPlugin {
  return {
    specificationVersion: 'v1',
    kind: 'provider',
    id,
    contextWindow: async () => ({ contextWindow, source: 'configured' }),
    usage: () => undefined,
    classifyError: (error) => classifyError(error, { provider: id }),
  };
}

const httpError = (provider: string, status: number, body: string, headers: Record<string, string> = {}) =>
  new ProviderCallError({ provider, failure: 'http', status, body, headers, message: `answered ${status}` });

const primary = { provider: provider('openai', 128_000), model: 'gpt-4o' };
const backup = { provider: provider('openrouter', 32_000), model: 'small' };

describe('withFallback', () => {
  it('moves on after a rate limit, tells onSwitch, and the window follows the model serving', async () => {
    const switches: FallbackSwitch[] = [];
    const chain = withFallback([primary, backup], { onSwitch: (change) => switches.push(change) });
    const windows: number[] = [];
    const { result, target, attempts } = await chain.run(async ({ provider, model, contextWindow }) => {
      windows.push((await contextWindow()).contextWindow);
      if (provider.id === 'openai') throw httpError('openai', 429, '{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}');
      return `answer from ${model}`;
    });
    expect(result).toBe('answer from small');
    expect(target).toBe(backup);
    expect(chain.current).toBe(backup);
    expect(windows).toEqual([128_000, 32_000]);
    expect((await chain.contextWindow()).contextWindow).toBe(32_000);
    expect(attempts.map((attempt) => attempt.action)).toEqual(['fallback']);
    expect(switches).toHaveLength(1);
    expect(switches[0]).toMatchObject({ from: primary, to: backup, classification: { kind: 'rate_limit', retryable: false } });
  });

  it('retries the same target after a short retry-after, within maxRetries', async () => {
    let calls = 0;
    const retries: number[] = [];
    const chain = withFallback([primary, backup], { onRetry: (attempt) => retries.push(attempt.waitedMs ?? -1) });
    const { target } = await chain.run(async () => {
      calls++;
      if (calls < 3) throw httpError('openai', 429, 'Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29937, Requested 385. Please try again in 20ms.');
      return 'ok';
    });
    expect(target).toBe(primary);
    expect(retries).toEqual([20, 20]);
  });

  it('does not wait for a long retry-after (a daily quota): it falls back at once', async () => {
    const chain = withFallback([primary, backup], { maxRetryDelayMs: 1_000 });
    const seen: string[] = [];
    const { target } = await chain.run(async ({ provider }) => {
      seen.push(provider.id);
      if (provider.id === 'openai') throw httpError('openai', 429, 'Please retry after 86400 seconds.');
      return 'ok';
    });
    expect(target).toBe(backup);
    expect(seen).toEqual(['openai', 'openrouter']);
  });

  it('falls back on timeout and offline, and rethrows an overflow unchanged', async () => {
    const chain = withFallback([primary, backup]);
    const offline = new ProviderCallError({ provider: 'openai', failure: 'offline', message: 'cannot reach' });
    await expect(chain.run(async ({ provider }) => (provider.id === 'openai' ? Promise.reject(offline) : 'ok'))).resolves.toMatchObject({ target: backup });
    const overflow = httpError('openrouter', 400, "This model's maximum context length is 32000 tokens. However, you requested 40000 tokens.");
    await expect(withFallback([backup, primary]).run(async () => Promise.reject(overflow))).rejects.toBe(overflow);
  });

  it('skips a failed target while it cools down, then goes back to the primary', async () => {
    let time = 0;
    const switches: string[] = [];
    const chain = withFallback([primary, backup], { cooldownMs: 1_000, now: () => time, onSwitch: ({ to }) => switches.push(to.model) });
    let primaryUp = false;
    const task = async ({ provider }: { provider: ProviderPlugin }) => {
      if (provider.id === 'openai' && !primaryUp) throw httpError('openai', 503, 'The model is overloaded.');
      return provider.id;
    };
    expect((await chain.run(task)).result).toBe('openrouter');
    time = 500;
    primaryUp = true;
    expect((await chain.run(task)).result).toBe('openrouter');
    time = 1_500;
    expect((await chain.run(task)).result).toBe('openai');
    expect(switches).toEqual(['small', 'gpt-4o']);
  });

  it('reports every failed target when all fail', async () => {
    const chain = withFallback([primary, backup]);
    const error = await chain
      .run(async ({ provider }) => Promise.reject(httpError(provider.id, 503, 'overloaded')))
      .then(
        () => expect.unreachable('the call resolved; it must reject'),
        (caught: unknown) => caught,
      );
    expect(CtxkitError.isInstance(error, 'PROVIDER_ERROR')).toBe(true);
    expect((error as Error).message).toBe('[ctxkit:provider-utils] every fallback target failed: openai gpt-4o (rate_limit), openrouter small (rate_limit)');
  });

  it('stops waiting when the caller aborts', async () => {
    const controller = new AbortController();
    const chain = withFallback([primary, backup]);
    const run = chain.run(
      async () => {
        setTimeout(() => controller.abort(new Error('user stopped')), 5);
        throw httpError('openai', 429, 'Please try again in 10s.');
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toThrow('user stopped');
  });

  it('rejects an empty chain or a target without a model', () => {
    expect(() => withFallback([])).toThrow('[ctxkit:provider-utils] withFallback needs at least one { provider, model } target');
    expect(() => withFallback([{ provider: primary.provider, model: '' }])).toThrow(/target 0 needs a provider plugin and a non-empty model id/);
  });
});
