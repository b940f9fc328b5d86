import { describe, expect, it } from 'vitest';
import tenthSet from './__fixtures__/provider-errors-holdout-10.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';
import { classifyError } from './classify-error.ts';

const entries = tenthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the tenth held-out set (issue 14: live bodies quoted in issue threads and classifier tests of projects no earlier set used, many of them errors that are none of the loop kinds, none in any earlier fixture, measured untouched)',
  minEntries: 57,
  minReal: 32,
  minTests: 25,
  // Every candidate sharing a 60-character stretch with an earlier fixture was dropped; that took every Vertex AI
  // body found (its 429 quota and "Resource exhausted" wordings are already held), so the set holds none (decision 0064).
  families: familiesExcept('vertex'),
  untouched: '55 of 57: real 31 of 32, tests 24 of 25, token figures 5 of 5',
  untouchedWrong: 3,
});

describe('the families the tenth set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads advice to wait or retry as busy only without a status: with one, the status decides', () => {
    expect(classifyError({ status: 404, body: 'Deployment not found. Please wait a few minutes and retry.' }).kind).toBe('other');
    expect(classifyError({ status: 400, body: 'Invalid tool schema, try again later' }).kind).toBe('other');
    expect(classifyError('Please wait and try again.')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError({ status: 503, body: 'Please wait' })).toMatchObject({ kind: 'rate_limit', retryable: true });
  });

  it('reads a location, region or country the service does not support as closed: another provider may answer', () => {
    expect(classifyError({ status: 400, body: 'This service is not supported in your country' })).toMatchObject({ kind: 'other', fallback: true, retryable: false });
    expect(classifyError({ status: 403, body: 'Region is not supported for this model' })).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError({ status: 400, body: 'logprobs is not supported for this model' })).toMatchObject({ kind: 'other', fallback: false });
  });

  it('reads billing that is disabled, inactive or not enabled as out of credit: a rate limit no wait restores', () => {
    expect(classifyError({ status: 403, body: 'Billing is disabled for this project' })).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError('Your billing account is inactive')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 403, body: 'This API method requires billing to be enabled on the project' })).toMatchObject({ kind: 'rate_limit', retryable: false });
  });
});
