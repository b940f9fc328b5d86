import { describe, expect, it } from 'vitest';
import eleventhSet from './__fixtures__/provider-errors-holdout-11.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';
import { classifyError } from './classify-error.ts';
import { retryAfterMs } from './retry-after.ts';

const entries = eleventhSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the eleventh held-out set (issue 14: errors inside streams, non-English bodies from Chinese providers and mocked error responses in other projects’ client tests, none in any earlier fixture, measured untouched)',
  minEntries: 75,
  minReal: 49,
  minTests: 26,
  // Every Cerebras body found shared a 60-character stretch with an earlier fixture (its "Tokens per minute limit
  // exceeded", "Requests per minute limit exceeded" and "Current length is ... while limit is" wordings are held),
  // so the set holds none (decision 0064).
  families: familiesExcept('cerebras'),
  untouched: '70 of 75: real 44 of 49, tests 26 of 26, token figures 4 of 4',
  untouchedWrong: 6,
});

describe('the families the eleventh set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads a status in square brackets, alone or with its reason phrase, as the status', () => {
    expect(classifyError('Upstream call failed: [502]')).toMatchObject({ kind: 'other', fallback: true, retryable: true });
    expect(classifyError('chat failed [500 Internal Server Error] while streaming')).toMatchObject({ kind: 'other', fallback: true, retryable: true });
    expect(classifyError('The batch holds [500 tokens]')).toMatchObject({ kind: 'other', fallback: false });
  });

  it('reads a full queue as a busy service, retried after a wait', () => {
    expect(classifyError('The inference queue is full for this model')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError({ status: 400, body: '{"code":"queue_exceeded","message":"too many requests queued"}' })).toMatchObject({ kind: 'rate_limit' });
    expect(classifyError('The job queue is empty')).toMatchObject({ kind: 'other' });
  });

  it('reads a wait the message asks for as the retry delay, so a wait of hours is a quota', () => {
    expect(retryAfterMs(undefined, 'Please wait 45s before the next call')).toBe(45_000);
    expect(retryAfterMs(undefined, 'please wait a moment')).toBeUndefined();
    expect(classifyError('Rate limited. Please wait 7200s.')).toMatchObject({ kind: 'rate_limit', retryable: false, retryAfterMs: 7_200_000 });
    expect(classifyError('Rate limited. Please wait 30 seconds.')).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfterMs: 30_000 });
  });

  it('reads a max_tokens value named invalid, illegal or out of range as a max_tokens error', () => {
    expect(classifyError({ status: 400, body: 'max_completion_tokens is invalid: it must not be above 16384' })).toMatchObject({ kind: 'max_tokens', limitTokens: 16384 });
    expect(classifyError({ status: 400, body: 'max_tokens 参数无效' }).kind).toBe('max_tokens');
    expect(classifyError({ status: 400, body: 'max_tokens is not supported with this model' }).kind).toBe('other');
  });

  it('reads requests too frequent in Chinese, whatever the subject, as a rate limit', () => {
    expect(classifyError('调用过于频繁，请稍后重试')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('操作太频繁').kind).toBe('rate_limit');
  });

  it('reads a usage or inference limit the account set, or a paused model service, as out of credit', () => {
    expect(classifyError('Endpoint ep-2024 has reached the set usage limit')).toMatchObject({ kind: 'rate_limit', retryable: false, fallback: true });
    expect(classifyError({ status: 403, body: 'The model service has been paused by the account owner' })).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 400, body: 'Input tokens exceed the configured limit of 8192' })).toMatchObject({ kind: 'context_overflow', limitTokens: 8192 });
  });
});
