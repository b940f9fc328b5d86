import type { Message } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { createHostHistory } from './host-history.ts';

const system: Message = { role: 'system', content: 's' };
const user: Message = { role: 'user', content: 'task' };
const call: Message = { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: '{}' }] };
const result: Message = { role: 'tool', toolCallId: 'c1', content: 'big' };
const stub: Message = { role: 'tool', toolCallId: 'c1', content: 'stub' };
const next: Message = { role: 'assistant', content: 'done' };

describe('createHostHistory', () => {
  it('continues from the last prepared transcript with only what the host added', () => {
    const history = createHostHistory();
    const first = [system, user, call, result];
    expect(history.continue(first)).toBe(first);
    const prepared = [system, user, call, stub];
    history.remember(first, prepared);
    expect(history.continue([system, user, call, result, next])).toEqual([system, user, call, stub, next]);
    expect(history.continue([system, user, call, result])).toBe(prepared);
  });

  it("takes the host's own list when an earlier message changed or the list got shorter", () => {
    const history = createHostHistory();
    history.remember([system, user, call, result], [system, user, call, stub]);
    const edited: Message[] = [system, { role: 'user', content: 'other task' }, call, result, next];
    expect(history.continue(edited)).toBe(edited);
    const shorter = [system, user];
    expect(history.continue(shorter)).toBe(shorter);
  });
});
