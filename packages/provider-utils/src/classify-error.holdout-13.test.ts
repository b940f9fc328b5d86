import { describe, expect, it } from 'vitest';
import thirteenthSet from './__fixtures__/provider-errors-holdout-13.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';
import { classifyError } from './classify-error.ts';

const entries = thirteenthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the thirteenth held-out set (issue 14: documented error tables of gateways and clouds, vendor forums off GitHub, and strings quoted in other projects’ notes and tests — none in any earlier fixture, measured untouched)',
  minEntries: 43,
  minReal: 25,
  minTests: 18,
  // Every Cerebras, Together and Fireworks string found was held already (Cerebras' "Tokens per day limit exceeded", its
  // per-minute and length bodies) or only paraphrased on AI-written explainer pages, so the set holds none (decision 0064).
  families: familiesExcept('cerebras', 'together', 'fireworks'),
  untouched: '41 of 43: real 25 of 25, tests 16 of 18, token figures 7 of 11',
  untouchedWrong: 7,
});

describe('the families the thirteenth set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads "Max input tokens: N" as the limit of an overflow', () => {
    expect(classifyError('Too many input tokens. Max input tokens: 2048, request input token count: 3000')).toMatchObject({ kind: 'context_overflow', reportedTokens: 3000, limitTokens: 2048 });
    expect(classifyError({ status: 400, body: 'prompt too long; maximum prompt tokens: 16000' }).limitTokens).toBe(16000);
  });

  it('reads "max_model_len of N" and "max_seq_len is N" as the limit', () => {
    expect(classifyError('The decoder prompt (length 9000) is longer than max_model_len of 8192.')).toMatchObject({ kind: 'context_overflow', reportedTokens: 9000, limitTokens: 8192 });
    expect(classifyError('input is longer than the context: max_seq_len is 4096').limitTokens).toBe(4096);
  });

  it('reads a prompt count in parentheses without the word "tokens" as the reported size', () => {
    expect(classifyError('The number of tokens to keep from the initial prompt (5000) is greater than the context length (4096).')).toMatchObject({
      kind: 'context_overflow',
      reportedTokens: 5000,
      limitTokens: 4096,
    });
  });

  it('reads a free allocation or quota used up, or 免费额度 used up, as out of credit: no wait restores it', () => {
    expect(classifyError({ status: 429, body: 'Free trial quota exceeded for this model' })).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError('免费额度已用完，请开通按量付费')).toMatchObject({ kind: 'rate_limit', retryable: false });
  });

  it('reads a request rate that rose too fast (burst protection) as a rate limit, retried after a wait', () => {
    expect(classifyError('Upstream error: request rate increased too fast, please smooth your traffic')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('{"code":"limit_burst_rate","message":"slow down"}')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError({ status: 400, body: 'sampling rate is too high for this audio model' }).kind).toBe('other');
  });

  it('reads a key, user or team over its budget as out of credit', () => {
    expect(classifyError('ExceededBudget: User=alice over budget. Spend=10.5, Budget=10')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 400, body: 'Key=sk-...ab12 over budget' })).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError({ status: 400, body: 'budget_tokens must be less than max_tokens' }).kind).not.toBe('rate_limit');
  });
});
