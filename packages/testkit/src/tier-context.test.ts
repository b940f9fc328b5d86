import type { Message } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { approximateCount } from './approximate-count.ts';
import { createTierContext } from './tier-context.ts';

const messages: Message[] = [
  { role: 'system', content: 'You are a careful agent.' },
  { role: 'user', content: 'Read README.md and fix the typo in the second heading, please.' },
];

describe('createTierContext', () => {
  it('measures currentTokens from the messages given and floorTokens as an empty request, with the count it uses', () => {
    const context = createTierContext({ protectedStart: 1, messages });
    expect(context.currentTokens).toBe(approximateCount(messages));
    expect(context.floorTokens).toBe(approximateCount([]));
    const doubled = (list: readonly Message[]) => 2 * approximateCount(list);
    const custom = createTierContext({ protectedStart: 1, messages, count: doubled });
    expect(custom.currentTokens).toBe(2 * approximateCount(messages));
    expect(custom.floorTokens).toBe(2 * approximateCount([]));
  });

  it('takes an explicit currentTokens over the messages', () => {
    expect(createTierContext({ protectedStart: 1, messages, currentTokens: 7 }).currentTokens).toBe(7);
  });

  it('says what to pass when a tier reads currentTokens from a context built without messages', () => {
    const context = createTierContext({ protectedStart: 1 });
    expect(() => context.currentTokens).toThrow('createTierContext: the tier read context.currentTokens; pass `messages`');
    expect(context.floorTokens).toBe(approximateCount([]));
  });
});
