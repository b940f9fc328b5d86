import type { Message } from '@ctxkit/core';

const modules = ['currency', 'rounding', 'tax', 'discounts', 'invoice', 'refunds', 'ledger', 'exchange', 'reports', 'checkout'];

/**
 * A long coding session, generated: the agent works through the pricing modules one by one, thinking
 * aloud at length (what an on-device summary is for) between short searches and test runs.
 */
export function sampleTranscript(rounds = 80): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'You are a careful coding agent. Tools: grep, read_file, bash. Explain your reasoning before each step.' },
    {
      role: 'user',
      content:
        'The pricing tests fail after the currency refactor: totals in src/pricing are off by a cent for EUR. Find the cause, fix it, and keep the public API of src/pricing/index.ts unchanged.',
    },
  ];
  for (let round = 0; round < rounds; round++) {
    const module = modules[round % modules.length]!;
    const path = `src/pricing/${module}.ts`;
    const id = `call_${round}`;
    const thinking = [
      `Step ${round + 1}: looking at ${path}.`,
      `The failing assertion compares 10.50 with 10.49, so some value is rounded before it is summed. In ${module} the amounts pass through toMinorUnits(), which multiplies by 100 and calls Math.round, and then through formatAmount(), which divides again.`,
      `If ${module} rounds per line item and the caller rounds the sum as well, a half cent can be lost twice. I want to know whether ${module} keeps amounts in minor units (integers) end to end, or converts back and forth.`,
      `The refactor moved the currency table to src/pricing/currency.ts and changed the exponent lookup from a switch to a map; a missing entry would fall back to 2 decimals, which is right for EUR but wrong for JPY, so that is not the EUR bug, but I note it as a second risk.`,
      round % 3 === 0
        ? 'Plan:\n1. grep for Math.round in the module\n2. read the conversion helpers\n3. run the pricing tests for this module'
        : 'Next, I search the module for rounding calls and check which ones run on floats.',
    ].join(' ');
    if (round % 4 === 3) {
      messages.push({ role: 'assistant', content: thinking, toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: `npx vitest run src/pricing/${module}.test.ts` }) }] });
      messages.push({
        role: 'tool',
        toolCallId: id,
        toolName: 'bash',
        content: `FAIL src/pricing/${module}.test.ts > totals in EUR\nAssertionError: expected 10.49 to be 10.5\nTests: 1 failed, ${round + 3} passed\nexit code 1`,
      });
    } else {
      messages.push({ role: 'assistant', content: thinking, toolCalls: [{ id, name: 'grep', arguments: JSON.stringify({ pattern: 'Math.round', path }) }] });
      messages.push({
        role: 'tool',
        toolCallId: id,
        toolName: 'grep',
        content: `${path}:${12 + round}:  return Math.round(amount * 100) / 100;\n${path}:${40 + round}:  const minor = Math.round(value * 10 ** exponent);`,
      });
    }
    if (round === rounds - 4) messages.push({ role: 'user', content: 'Also add a regression test for the EUR total once it is fixed.' });
  }
  return messages;
}
