import type { Message } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { summarizableSpan } from './fold-span.ts';
import { summaryOptions } from './tier-options.ts';

describe('summaryOptions', () => {
  it('fills in the tier defaults and checks each option by name', () => {
    expect(summaryOptions('tier-x', {}, { timeoutMs: 60_000, maxSummaryTokens: 1_000 })).toEqual({ timeoutMs: 60_000, maxSummaryTokens: 1_000, taskTermCoverage: 0.3 });
    expect(summaryOptions('tier-x', { extraInstructions: 'Answer in French.', timeoutMs: Number.POSITIVE_INFINITY }, { timeoutMs: 1, maxSummaryTokens: 64 })).toMatchObject({
      extraInstructions: 'Answer in French.',
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    expect(() => summaryOptions('tier-x', { maxSummaryTokens: 10 }, { timeoutMs: 1, maxSummaryTokens: 64 })).toThrow(/\[ctxkit:tier-x\] option maxSummaryTokens must be an integer from 64/);
    expect(() => summaryOptions('tier-x', { extraInstructions: 5 as unknown as string }, { timeoutMs: 1, maxSummaryTokens: 64 })).toThrow(/option extraInstructions must be a string, got number/);
  });
});

describe('summarizableSpan', () => {
  const count = (messages: readonly Message[]) => messages.reduce((sum, message) => sum + JSON.stringify(message).length, 10);
  const messages: Message[] = [
    { role: 'system', content: 's' },
    { role: 'user', content: 'task' },
    { role: 'assistant', content: 'x'.repeat(400) },
    { role: 'assistant', content: 'y'.repeat(400) },
    { role: 'user', content: 'recent' },
  ];

  it('returns the span after the task with its tokens, without the floor', () => {
    const found = summarizableSpan(messages, { protectedStart: 4, count, floorTokens: count([]) }, 100);
    expect(found).toMatchObject({ span: { taskIndex: 1, start: 2, end: 4 }, folded: messages.slice(2, 4) });
    expect('spanTokens' in found && found.spanTokens).toBe(count(messages.slice(2, 4)) - count([]));
  });

  it('says why there is nothing to fold', () => {
    expect(summarizableSpan(messages, { protectedStart: 2, count, floorTokens: count([]) }, 0)).toEqual({ skip: 'nothing to summarize between the task and the protected recent messages' });
    expect(summarizableSpan(messages, { protectedStart: 4, count, floorTokens: count([]) }, 10_000)).toMatchObject({ skip: expect.stringMatching(/under minSpanTokens \(10,000\)/) });
    const digest: Message = { role: 'user', content: '[ctxkit summary]', meta: { ctxkit: { kind: 'summary', by: 'summary', replaces: ['#2'] } } };
    expect(summarizableSpan([messages[0]!, messages[1]!, digest, messages[4]!], { protectedStart: 3, count, floorTokens: count([]) }, 0)).toEqual({
      skip: 'the span is already a single ctxkit summary',
    });
  });
});
