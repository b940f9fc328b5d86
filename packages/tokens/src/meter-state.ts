import { CtxkitError, type EstimatorPlugin, type Message, type TokenizerPlugin } from '@ctxkit/core';
import { Calibration, type CounterKind } from './calibration.ts';
import { heuristicEstimator } from './heuristic-estimator.ts';
import type { MessageFraming } from './message-cost.ts';
import type { MeterOptions } from './meter-types.ts';
import { checkPlausibleUsageRatio, type DistrustedUsage, defaultPlausibleUsageRatio } from './usage-check.ts';

/** Local counts of one message object, with the fields they were counted from. */
export interface MessageEntry {
  readonly role: unknown;
  readonly content: unknown;
  readonly toolCalls: unknown;
  readonly toolName: unknown;
  estimate?: number;
  exact?: number;
}

/** Local counts of one list of tool definitions, by its JSON text. */
export interface ToolsEntry {
  readonly json: string;
  estimate?: number;
  exact?: number;
}

/** The provider's figure a measurement builds on, and what the request it counted held. */
export interface Anchor {
  readonly reported: number;
  readonly messageCount: number;
  readonly model: string | undefined;
  readonly system: Message | undefined;
  readonly tools: readonly unknown[] | undefined;
}

/** What a meter keeps between calls: its settings, its caches, its ledger and its anchor. */
export interface MeterState {
  readonly tokenizer: TokenizerPlugin | undefined;
  readonly estimator: EstimatorPlugin;
  readonly framing: MessageFraming;
  readonly requestOverhead: number;
  readonly plausibleUsageRatio: number;
  readonly calibrating: boolean;
  readonly calibration: Calibration;
  readonly onDistrustedUsage: (usage: DistrustedUsage) => void;
  // Counts without calibration, cached per message object; the fields are re-checked so that a field
  // reassigned on the same object is noticed.
  readonly messageCache: WeakMap<object, MessageEntry>;
  readonly toolsCache: WeakMap<object, ToolsEntry>;
  toolsByJson: Map<string, ToolsEntry>;
  tokenizerLoaded: boolean;
  readyPromise: Promise<void> | undefined;
  // The transcript of the last measure/exceeds/record, with running sums of its growing part per
  // counter, so a step counts only the messages that were not there before.
  // A copy of the references, not the host's array: a host that splices its own array in place
  // must still look changed.
  readonly ledger: Message[];
  readonly cumulative: Record<CounterKind, number[]>;
  anchor: Anchor | undefined;
  lastTools: readonly unknown[] | undefined;
}

/** An INVALID_ARGUMENT error from the tokens package. */
export function argumentError(message: string): CtxkitError {
  return new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message });
}

/** The value when it is a whole number ≥ 0. @throws CtxkitError INVALID_ARGUMENT naming `name` */
export function wholeNumber(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw argumentError(`${name} must be a whole number ≥ 0, got ${JSON.stringify(value)}`);
  return value;
}

/** The messages when they are an array. @throws CtxkitError INVALID_ARGUMENT naming `where` */
export function transcript(messages: unknown, where: string): readonly Message[] {
  if (!Array.isArray(messages)) throw argumentError(`${where}: messages must be an array, got ${messages === null ? 'null' : typeof messages}`);
  return messages as readonly Message[];
}

function checkCounters(tokenizer: TokenizerPlugin | undefined, estimator: EstimatorPlugin): void {
  if (tokenizer !== undefined && (tokenizer.kind !== 'tokenizer' || typeof tokenizer.count !== 'function')) {
    throw argumentError(`createMeter: tokenizer must be a tokenizer plugin (kind "tokenizer" with count()), got kind ${JSON.stringify((tokenizer as { kind?: unknown }).kind)}`);
  }
  if (estimator.kind !== 'estimator' || typeof estimator.estimate !== 'function') {
    throw argumentError(`createMeter: estimator must be an estimator plugin (kind "estimator" with estimate()), got kind ${JSON.stringify((estimator as { kind?: unknown }).kind)}`);
  }
}

function messageFraming(options: MeterOptions): MessageFraming {
  const framing: MessageFraming = {
    perMessageOverhead: wholeNumber('createMeter: perMessageOverhead', options.perMessageOverhead ?? 3),
    toolCallOverhead: wholeNumber('createMeter: toolCallOverhead', options.toolCallOverhead ?? 3),
    imageTokens: options.imageTokens ?? 765,
  };
  if (typeof framing.imageTokens === 'number') wholeNumber('createMeter: imageTokens', framing.imageTokens);
  else if (typeof framing.imageTokens !== 'function') throw argumentError('createMeter: imageTokens must be a number or a function of (part, message)');
  return framing;
}

/**
 * A fresh meter state from checked options.
 * @throws CtxkitError INVALID_ARGUMENT for a bad option
 */
export function createMeterState(options: MeterOptions): MeterState {
  const tokenizer = options.tokenizer;
  const plausibleUsageRatio = options.plausibleUsageRatio ?? defaultPlausibleUsageRatio;
  checkPlausibleUsageRatio(plausibleUsageRatio);
  const estimator = options.estimator ?? heuristicEstimator();
  checkCounters(tokenizer, estimator);
  const framing = messageFraming(options);
  const requestOverhead = wholeNumber('createMeter: requestOverhead', options.requestOverhead ?? 3);
  return {
    tokenizer,
    estimator,
    framing,
    requestOverhead,
    plausibleUsageRatio,
    calibrating: options.calibration !== false,
    calibration: new Calibration(options.calibration === false ? {} : options.calibration, options.calibrations),
    onDistrustedUsage: (usage) => options.onDistrustedUsage?.(usage),
    messageCache: new WeakMap(),
    toolsCache: new WeakMap(),
    toolsByJson: new Map(),
    tokenizerLoaded: tokenizer !== undefined && (tokenizer.load === undefined || (tokenizer as { loaded?: boolean }).loaded === true),
    readyPromise: undefined,
    ledger: [],
    cumulative: { estimate: [0], exact: [0] },
    anchor: undefined,
    lastTools: undefined,
  };
}
