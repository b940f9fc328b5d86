import type { Message, Role, TokenizerPlugin, EstimatorPlugin } from '@ctxkit/core';
import type { CalibrationOptions, CalibrationSnapshot, CounterKind } from './calibration.ts';
import type { ImageTokens } from './message-cost.ts';
import type { DistrustedUsage } from './usage-check.ts';

/** Options for {@link createMeter}. */
export interface MeterOptions {
  /** The exact counter, loaded lazily (`ready()`, or the first `exceeds` that needs it). Without one, nothing is confirmed. */
  tokenizer?: TokenizerPlugin;
  /** The cheap counter used until the tokenizer is loaded. @default heuristicEstimator() */
  estimator?: EstimatorPlugin;
  /** Tokens of framing around every message (role markers). @default 3 */
  perMessageOverhead?: number;
  /** Tokens of framing around every tool call, besides its name and arguments. @default 3 */
  toolCallOverhead?: number;
  /** Tokens added once per request (the reply primer); part of the floor. @default 3 */
  requestOverhead?: number;
  /** What an image costs; see `imageTokenPresets`. @default 765 (OpenAI, 1024×1024 at high detail) */
  imageTokens?: ImageTokens;
  /** How provider reports calibrate local counts, or `false` to never calibrate. @default { min: 0.5, max: 2, smoothing: 0.3 } */
  calibration?: CalibrationOptions | false;
  /** Calibration learned earlier (from `meter.calibrations()`, kept in a store), to start from. */
  calibrations?: CalibrationSnapshot;
  /**
   * A reported input count under this share of the local count is not believed: the meter anchors on
   * the calibrated local count instead and does not calibrate on it (see `isPlausibleUsage`); 0 believes
   * every figure. @default 0.6
   */
  plausibleUsageRatio?: number;
  /** Told about each reported figure the meter did not believe. */
  onDistrustedUsage?: (usage: DistrustedUsage) => void;
}

/** What the request will cost, split into the part resent unchanged every step and the part that grows. */
export interface Measurement {
  /** Tokens of the whole request: `floor + growing`. */
  total: number;
  /** The system message, the tool definitions (their JSON) and the per-request framing: resent every step, untouched by compaction. */
  floor: number;
  /** Everything else: the part compaction can shrink. */
  growing: number;
  /** `reported`: the provider's last figure plus a local count of what came after it; otherwise how the whole was counted locally. */
  source: 'reported' | 'estimate' | 'exact';
  /** True when what was counted locally was counted exactly (or nothing was). */
  confirmed: boolean;
  /** The provider figure the measurement rests on, when `source` is `reported`. */
  reportedTokens?: number;
  /** How many messages were counted locally (all of them without an anchor). */
  unanchoredMessages: number;
  /** The calibration ratio applied to the local counts (1 before any report for the model). */
  calibration: number;
  /** The model the measurement was made for, when given. */
  model?: string;
}

/** Options of a measurement: the request's tool definitions and the model actually serving it. */
export interface MeasureOptions {
  /** The tool definitions sent with the request (any JSON); counted as their JSON text in the floor. Pass the same array every step. */
  tools?: readonly unknown[] | undefined;
  /** The model serving the request: selects its calibration and guards the anchor. */
  model?: string | undefined;
  /** Count exactly (`true`, needs the tokenizer loaded) or estimate (`false`). @default exact when the tokenizer is loaded */
  exact?: boolean | undefined;
}

/** What the provider reported for one request. */
export interface UsageReport {
  /** Input tokens the provider counted for the request, cached ones included. */
  inputTokens: number;
  /** How many messages the request held: the length of the last measured transcript, or the first `messageCount` of `messages`. */
  messageCount: number;
  /** The model that served it. */
  model?: string | undefined;
  /** True when the figure may undercount (Ollama's `prompt_eval_count` skips cached tokens): it anchors, but never calibrates. */
  inputIsLowerBound?: boolean | undefined;
  /** The transcript that was sent; needed when it is not the one last measured (after a compaction). @default the transcript of the last `measure` or `exceeds` */
  messages?: readonly Message[] | undefined;
  /** The tool definitions that were sent. @default those of the last `measure` or `exceeds` */
  tools?: readonly unknown[] | undefined;
}

/** Tokens per role and for the floor's parts, for reports such as `ctxkit measure`. */
export interface Breakdown {
  total: number;
  floor: { system: number; tools: number; request: number };
  roles: Record<Role, { messages: number; tokens: number }>;
  source: 'estimate' | 'exact';
}

/**
 * Measures transcripts the way the provider counts them, at the cost of the new messages only.
 * Messages are immutable values to the meter: a changed message must be a new object (counts are cached
 * per message object, and an earlier message replaced by another object drops the anchor).
 */
export interface Meter {
  /**
   * The request's size now: the last provider report plus a local count of only the messages added
   * since, or a local count of everything when there is no usable report. Synchronous.
   * @throws CtxkitError INVALID_TRANSCRIPT naming the message index and field of a bad message
   */
  measure(messages: readonly Message[], options?: MeasureOptions): Measurement;
  /**
   * Whether the request is over `threshold`. An over-threshold answer never rests on an estimate alone:
   * the unanchored part is recounted exactly first (awaiting the tokenizer's load).
   * @throws CtxkitError INVALID_ARGUMENT for a bad threshold; TOKENIZER_FAILED when the ranks cannot load
   */
  exceeds(messages: readonly Message[], threshold: number, options?: Omit<MeasureOptions, 'exact'>): Promise<Measurement & { exceeds: boolean; threshold: number }>;
  /**
   * Takes the provider's figure for the last request as the anchor of the next measurements, and folds
   * it into the model's calibration.
   * @throws CtxkitError INVALID_ARGUMENT for a negative or fractional figure, or a messageCount past the transcript
   */
  record(report: UsageReport): void;
  /**
   * What the provider would count for this transcript, from local counts alone (calibrated), with no anchor.
   * @throws CtxkitError TOKENIZER_FAILED for `exact: true` before the tokenizer is loaded; INVALID_TRANSCRIPT for a bad message
   */
  countMessages(messages: readonly Message[], options?: MeasureOptions): number;
  /** Tokens of a piece of text (calibrated for the model). @throws CtxkitError TOKENIZER_FAILED for `exact: true` before the tokenizer is loaded */
  countText(text: string, options?: Omit<MeasureOptions, 'tools'>): number;
  /** Per-role and floor detail of a transcript, from local counts (calibrated). */
  breakdown(messages: readonly Message[], options?: MeasureOptions): Breakdown;
  /** Loads the tokenizer, when there is one; safe to call many times. @throws CtxkitError TOKENIZER_FAILED */
  ready(): Promise<void>;
  /** Drops the anchor, so the next measurement counts everything locally (the engine calls it after a compaction; replaced messages are detected anyway). */
  reset(): void;
  /** The calibration ratio (real ÷ local) for a model and counter; 1 when no report has been seen. @default kind: the counter `measure` uses now */
  calibration(model?: string, kind?: CounterKind): number;
  /** Every calibration learned so far, as JSON to persist and pass back as `createMeter({ calibrations })`. */
  calibrations(): CalibrationSnapshot;
}
