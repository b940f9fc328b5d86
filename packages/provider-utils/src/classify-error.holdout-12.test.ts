import { describe, expect, it } from 'vitest';
import twelfthSet from './__fixtures__/provider-errors-holdout-12.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';
import { classifyError } from './classify-error.ts';

const entries = twelfthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the twelfth held-out set (issue 14: live bodies from less-mined places — a Chinese gateway’s error catalogue, GitLab’s AI gateway issues, gateways’ documented error tables, small projects’ issue threads — none in any earlier fixture, measured untouched)',
  minEntries: 59,
  minReal: 51,
  minTests: 8,
  // Every Moonshot, Together and vLLM body found shared a 60-character stretch with an earlier fixture or came from
  // a thread an earlier set used (their overflow, rate and unknown-model wordings are held), so the set holds none
  // (decision 0064).
  families: familiesExcept('moonshot', 'together', 'vllm'),
  untouched: '51 of 59: real 44 of 51, tests 7 of 8, token figures 3 of 7',
  untouchedWrong: 11,
});

describe('the families the twelfth set showed missing, in wordings it does not hold (decision 0064)', () => {
  it('reads the count before "tokens exceed" as the reported size of an overflow', () => {
    expect(classifyError('Illegal param: prompt 9001 tokens exceed n_ctx 8192')).toMatchObject({ kind: 'context_overflow', reportedTokens: 9001, limitTokens: 8192 });
  });

  it('reads a prompt that must be shorter than the maximum sequence, model or context length as an overflow, with its figures', () => {
    expect(classifyError({ status: 400, body: 'prompt_tokens (9000) must be smaller than max_model_len (8192)' })).toMatchObject({ kind: 'context_overflow', reportedTokens: 9000, limitTokens: 8192 });
    expect(classifyError({ status: 400, body: 'the input must be less than the maximum context length' }).kind).toBe('context_overflow');
    expect(classifyError({ status: 400, body: 'temperature must be less than 2' }).kind).toBe('other');
  });

  it('does not read max_tokens set below another parameter as a cap on the output budget', () => {
    expect(classifyError({ status: 400, body: 'max_completion_tokens should be larger than reasoning.max_tokens' }).kind).toBe('other');
    expect(classifyError({ status: 400, body: 'max_tokens must be less than or equal to 8192' })).toMatchObject({ kind: 'max_tokens', limitTokens: 8192 });
  });

  it('reads a router with no deployment left as a busy service, retried after the wait it names', () => {
    expect(classifyError('Router: no deployments available for model group gpt-4o. Try again in 45 seconds')).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfterMs: 45_000 });
    expect(classifyError({ status: 404, body: 'The API deployment for this resource does not exist.' }).kind).toBe('other');
  });

  it('reads a server or upstream that is saturated, fully loaded or busy, in Chinese, as a busy service', () => {
    expect(classifyError('上游负载过高，请稍后重试')).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyError('服务器繁忙').kind).toBe('rate_limit');
    expect(classifyError('负载均衡配置错误').kind).toBe('other');
  });

  it('reads a quota that is not enough, or 额度/配额不足, as out of credit: no wait restores it', () => {
    expect(classifyError('user quota_not_enough for this key')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError('额度不足，请充值后重试')).toMatchObject({ kind: 'rate_limit', retryable: false });
  });

  it('reads the limit of an "(actual/limit): A/L" rate message, and only the limit', () => {
    const result = classifyError({ status: 429, body: 'Tokens per minute (actual/limit): 9000/8000' });
    expect(result).toMatchObject({ kind: 'rate_limit', limitTokens: 8000 });
    expect(result.reportedTokens).toBeUndefined();
  });

  it('reads a model the gateway does not serve as other, sent on when it came as a 5xx, not as a busy server', () => {
    expect(classifyError({ status: 503, body: '{"error":{"code":"model_not_found","message":"no route"}}' })).toMatchObject({ kind: 'other', fallback: true });
    expect(classifyError({ status: 503, body: '分组 vip 下模型 x 无可用渠道' }).kind).toBe('other');
    expect(classifyError({ status: 503, body: 'Service Unavailable' }).kind).toBe('rate_limit');
  });
});
