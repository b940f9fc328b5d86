import type { Message } from '@ctxkit/core';
import type { CounterKind } from './calibration.ts';
import { messageTokens } from './meter-counts.ts';
import type { MeterState } from './meter-state.ts';

/**
 * Brings the ledger to `messages`: keeps the common prefix (by identity), drops what follows it, with
 * its running sums and an anchor that covered it, and appends the rest.
 */
export function syncLedger(state: MeterState, messages: readonly Message[]): void {
  const { ledger, cumulative } = state;
  const limit = Math.min(ledger.length, messages.length);
  let common = 0;
  // Identity, not content: a changed message is a new object, so this is the whole check.
  while (common < limit && ledger[common] === messages[common]) common++;
  if (common < ledger.length) {
    for (const kind of ['estimate', 'exact'] as const) if (cumulative[kind].length > common + 1) cumulative[kind].length = common + 1;
    if (state.anchor && common < state.anchor.messageCount) state.anchor = undefined;
    ledger.length = common;
  }
  for (let index = common; index < messages.length; index++) ledger.push(messages[index]!);
}

function growingAt(state: MeterState, index: number, kind: CounterKind): number {
  const message = state.ledger[index]!;
  return index === 0 && message?.role === 'system' ? 0 : messageTokens(state, message, index, kind);
}

/** The growing part of the ledger's first `end` messages, extending the running sums as needed. */
export function growingUpTo(state: MeterState, kind: CounterKind, end: number): number {
  const sums = state.cumulative[kind];
  for (let index = sums.length - 1; index < end; index++) sums.push(sums[index]! + growingAt(state, index, kind));
  return sums[end]!;
}

/**
 * The growing part of messages [start, end). When the running sums do not reach `start` (the
 * tokenizer was loaded after the anchor), only the range is counted: a confirmation costs the tail.
 */
export function growingBetween(state: MeterState, kind: CounterKind, start: number, end: number): number {
  const sums = state.cumulative[kind];
  if (sums.length > start) return growingUpTo(state, kind, end) - sums[start]!;
  let total = 0;
  for (let index = start; index < end; index++) total += growingAt(state, index, kind);
  return total;
}
