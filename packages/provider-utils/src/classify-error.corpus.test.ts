import { providerErrorInput, readProviderErrors, runProviderErrorCorpus } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.ts';

runProviderErrorCorpus({
  name: 'classifyError',
  classify: (error) => classifyError(error),
  // Only rate limits, timeouts and outages send the request to the next provider.
  alsoExpect: (entry, classification) => expect(classification.fallback).toBe(entry.kind === 'rate_limit'),
});

const entries = readProviderErrors();

describe.skipIf(entries.length === 0)('classifyError on the quotas of the corpus', () => {
  it('sends daily quotas and never-fitting requests to the next provider instead of retrying', () => {
    const notRetryable = entries.filter((entry) => /per-day|daily|NOT retryable|waiting does not help|daily token quota|per-day quota/i.test(entry.provider));
    expect(notRetryable.length).toBeGreaterThanOrEqual(4);
    for (const entry of notRetryable) expect(classifyError(providerErrorInput(entry)), entry.provider).toMatchObject({ kind: 'rate_limit', retryable: false, fallback: true });
  });
});
