import type { Message } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { acceptTierOutcome, validateTierOutput } from './validate-tier-output.ts';

const input: Message[] = [
  { role: 'system', content: 'You are a careful agent.' },
  { role: 'user', content: 'Fix the bug.' },
  { role: 'assistant', content: 'Looking at it.' },
  { role: 'user', content: 'Go on.' },
];
// A stand-in for the meter: one token a character.
const count = (messages: readonly Message[]) => messages.reduce((sum, message) => sum + String(message.content).length, 0);

describe('validateTierOutput', () => {
  it('accepts an output that keeps the system message and the protected suffix (equal copies count)', () => {
    expect(validateTierOutput(input, [input[0]!, structuredClone(input[3]!)], 1)).toBeUndefined();
  });

  it('names the invariant an output breaks', () => {
    expect(validateTierOutput(input, undefined as unknown as Message[], 1)).toBe('returned no message array');
    expect(validateTierOutput(input, [input[0]!, { role: 'user', content: 'Stop.' }], 1)).toBe('changed the protected recent messages');
    expect(validateTierOutput(input, [{ role: 'system', content: 'Other.' }, input[3]!], 1)).toBe('changed the system message');
    expect(validateTierOutput(input, [input[0]!, { role: 'tool', toolCallId: 'x', content: 'y' }, input[3]!], 1)).toMatch(/^returned an invalid transcript \(message 1 /);
  });
});

describe('acceptTierOutcome', () => {
  const output = [input[0]!, input[3]!];
  const before = count(input);

  it("takes an applied output at the engine's count and reports a tier figure that disagrees", () => {
    expect(acceptTierOutcome(input, { status: 'applied', messages: output, tokens: count(output) }, 1, before, count)).toEqual({
      outcome: { status: 'applied', messages: output, tokens: count(output) },
      after: count(output),
    });
    const wrong = acceptTierOutcome(input, { status: 'applied', messages: output, tokens: 3 }, 1, before, count);
    expect(wrong).toMatchObject({ after: count(output), claimedTokens: 3, outcome: { status: 'applied' } });
  });

  it('fails an output that grew or broke an invariant, and leaves the size as it was', () => {
    const longer = [...input.slice(0, 3), { role: 'assistant', content: 'x'.repeat(100) } as Message, input[3]!];
    expect(acceptTierOutcome(input, { status: 'applied', messages: longer, tokens: 1 }, 1, before, count)).toEqual({
      outcome: { status: 'failed', reason: `output grew from ${before} to ${count(longer)} tokens` },
      after: before,
      claimedTokens: 1,
    });
    expect(acceptTierOutcome(input, { status: 'applied', messages: [input[0]!] }, 1, before, count)).toEqual({
      outcome: { status: 'failed', reason: 'changed the protected recent messages' },
      after: before,
    });
  });

  it('passes a skipped or failed outcome through unchanged', () => {
    const skipped = { status: 'skipped', reason: 'nothing to do' } as const;
    expect(acceptTierOutcome(input, skipped, 1, before, count)).toEqual({ outcome: skipped, after: before });
  });
});
