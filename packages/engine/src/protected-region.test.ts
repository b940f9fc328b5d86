import type { Message } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { protectedRegion } from './protected-region.ts';

const size = (messages: Message[]) => (start: number) => messages.slice(start).reduce((sum, message) => sum + JSON.stringify(message).length, 0);

function agentRun(rounds: number): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 's' },
    { role: 'user', content: 'task' },
  ];
  for (let round = 0; round < rounds; round++) {
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${round}`, name: 'bash', arguments: '{}' }] }, { role: 'tool', toolCallId: `c${round}`, content: 'x'.repeat(100) });
  }
  return messages;
}

describe('protectedRegion', () => {
  it('keeps the last turns when they fit the budget', () => {
    const messages: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'next' },
      { role: 'assistant', content: 'b' },
    ];
    expect(protectedRegion(messages, 1, 10_000, size(messages))).toEqual({ start: 3, by: 'turns', size: 1 });
  });

  it('falls back to rounds in a one-turn agent run, as many as fit, at least one', () => {
    const messages = agentRun(10);
    const perRound = size(messages)(messages.length - 2);
    expect(protectedRegion(messages, 6, 10_000, size(messages))).toEqual({ start: messages.length - 12, by: 'rounds', size: 6 });
    expect(protectedRegion(messages, 6, perRound * 3, size(messages))).toEqual({ start: messages.length - 6, by: 'rounds', size: 3 });
    expect(protectedRegion(messages, 6, 1, size(messages))).toEqual({ start: messages.length - 2, by: 'rounds', size: 1 });
  });
});
