import { describe, expect, it } from 'vitest';
import twentiethSet from './__fixtures__/provider-errors-holdout-20.json' with { type: 'json' };
import { describeHeldOutSet, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';
import { classifyError } from './classify-error.ts';

const entries = twentiethSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twentieth held-out set (issue 14: error strings other projects’ test suites feed their retry and error-message logic — promptfoo, LibreChat — none in any earlier fixture, measured untouched)',
  minEntries: 33,
  minReal: 0,
  minTests: 33,
  // Decision 0064, "A twentieth set": test-suite strings only, from two projects no earlier set drew on; they name
  // Gemini, Vertex AI, Azure, Anthropic, OpenAI and an OpenAI-compatible gateway, no other family of the issue.
  families: ['vertex', 'gateway', 'openai', 'anthropic', 'gemini', 'azure'],
  untouched: '30 of 33: real 0 of 0, tests 30 of 33 (90.9%), token figures 0 of 0',
  untouchedWrong: 3,
});

describe('the families the twentieth set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads a connection dropped mid-write or a TLS record torn in transit as the server gone, worth a retry', () => {
    expect(classifyError('Error: write EPIPE')).toMatchObject({ kind: 'offline', retryable: true });
    expect(classifyError('[Errno 32] Broken pipe')).toMatchObject({ kind: 'offline', retryable: true });
    expect(classifyError('OpenSSL SSL_read: error:1408F119:SSL routines:ssl3_get_record:decryption failed or bad record mac')).toMatchObject({
      kind: 'offline',
      retryable: true,
    });
  });

  it('reads Google’s missing or invalid quota project as a credentials setting, not a quota waiting restores', () => {
    const adc = 'Your application is authenticating by using local Application Default Credentials. The aiplatform.googleapis.com API requires a quota project, which is not set by default.';
    expect(classifyError({ status: 403, body: adc })).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyError('invalid quota_project_id in credentials')).toMatchObject({ kind: 'other', retryable: false });
    // A quota that did run out stays a rate limit, even when the message names the project it is charged to.
    expect(classifyError({ status: 429, body: 'Quota exceeded for quota project my-project' })).toMatchObject({ kind: 'rate_limit' });
  });
});
