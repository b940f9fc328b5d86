import type { Message } from '@ctxkit/core';

/** A small deterministic PRNG (mulberry32), so the demo is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const modules = ['billing', 'invoices', 'currency', 'tax', 'discounts', 'ledger', 'exports', 'reports', 'accounts', 'audit'];

function sourceFile(path: string, lines: number, next: () => number): string {
  const out: string[] = [`// ${path}`, "import { Decimal } from '../lib/decimal';", ''];
  for (let line = 0; out.length < lines; line++) {
    const name = `${path.split('/').at(-1)!.replace(/\W/g, '_')}_${line}`;
    out.push(`export function ${name}(amount: Decimal, rate = ${(next() * 3).toFixed(4)}): Decimal {`);
    out.push(`  if (amount.isNegative()) throw new RangeError('${name}: negative amount');`);
    out.push(`  return amount.times(rate).toDecimalPlaces(${1 + Math.floor(next() * 4)});`);
    out.push('}', '');
  }
  return out.join('\n');
}

/**
 * A long synthetic coding session, the same on every run: a task, then an agent reading files, grepping,
 * running failing tests, editing, and running them again, about 170 requests and 150K tokens in all.
 * The data behind `ctxkit simulate --demo`.
 */
export function demoSession(seed = 7): Message[] {
  const next = random(seed);
  const messages: Message[] = [
    { role: 'system', content: 'You are a coding agent working in a TypeScript repository. Use the tools to read, search, edit and test. Keep changes minimal.' },
    {
      role: 'user',
      content:
        'Rounding in the billing service is wrong since the currency refactor: invoices in JPY show two decimals and EUR totals drift by a cent. Find the cause, fix it across the affected modules, and make `npm test` pass.',
    },
  ];
  let id = 0;
  const call = (name: string, args: Record<string, unknown>, result: string, thought: string) => {
    const callId = `call_${++id}`;
    messages.push({ role: 'assistant', content: thought, toolCalls: [{ id: callId, name, arguments: JSON.stringify(args) }] });
    messages.push({ role: 'tool', toolCallId: callId, toolName: name, content: result });
  };
  for (let round = 0; round < 170; round++) {
    const module = modules[Math.floor(next() * modules.length)]!;
    const path = `src/${module}/${['index', 'rounding', 'format', 'convert'][Math.floor(next() * 4)]}.ts`;
    const roll = next();
    if (roll < 0.45) {
      call('read_file', { path }, sourceFile(path, 60 + Math.floor(next() * 160), next), `Reading ${path} to see how amounts are rounded.`);
    } else if (roll < 0.65) {
      const hits = Array.from({ length: 5 + Math.floor(next() * 30) }, (_, hit) => `src/${modules[hit % modules.length]}/rounding.ts:${10 + hit * 7}:  return amount.toDecimalPlaces(${hit % 3});`);
      call('grep', { pattern: 'toDecimalPlaces', path: 'src' }, hits.join('\n'), 'Searching for every place that rounds.');
    } else if (roll < 0.85) {
      const failures = 1 + Math.floor(next() * 6);
      const lines = Array.from(
        { length: failures },
        (_, failure) =>
          `  ✕ ${module} rounds ${['JPY', 'EUR', 'USD'][failure % 3]} totals (${Math.floor(next() * 40)} ms)\n    Expected: "1,235"\n    Received: "1,234.50"\n      at Object.<anonymous> (src/${module}/rounding.test.ts:${20 + failure}:11)`,
      );
      call(
        'bash',
        { command: `npm test -- ${module}` },
        `FAIL src/${module}/rounding.test.ts\n${lines.join('\n')}\n\nTests: ${failures} failed, ${12 - failures} passed\nexit code 1`,
        `Running the ${module} tests.`,
      );
    } else {
      call('edit_file', { path, old_str: 'toDecimalPlaces(2)', new_str: 'toDecimalPlaces(currency.minorUnits)' }, `Edited ${path}: 1 replacement.`, `Using the currency's minor units in ${path}.`);
    }
  }
  messages.push({ role: 'assistant', content: 'All rounding now uses the currency minor units; the tests pass.', toolCalls: [{ id: `call_${++id}`, name: 'submit', arguments: '{}' }] });
  return messages;
}
