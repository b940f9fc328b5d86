import type { AnyPlugin, ErrorClassification, Falsy, IdsOf, Message, ModelLimits, Registry, ThresholdPolicyPlugin, Usage } from '@ctxkit/core';
import type { CompactionSnapshot } from '@ctxkit/threshold';
import type { Measurement, Meter } from '@ctxkit/tokens';
import type { CompactionDepthOptions } from './compaction-depth.ts';
import type { ManagerEvent, ReinjectedBlock, TierReport } from './events.ts';
import type { ContextWindowOption } from './model-limits.ts';
import type { ProtectedRegion } from './protected-region.ts';
import type { SummarizerGuardOptions, SummarizerReport } from './summarizer-guard.ts';
import type { ToolLoader, ToolLoadingReport } from './tool-loader.ts';

/**
 * Options for {@link createContextManager}, typed by the plugins it is given (`P`): `policy` as an id
 * must name a threshold policy among them.
 */
export interface ContextManagerOptions<P extends AnyPlugin = AnyPlugin> {
  /** Plugins (tiers in the order they run, tokenizer, estimator, summarizer, providers, store, reinjection sources); falsy entries are skipped. */
  plugins?: readonly (P | Falsy)[];
  /** A registry instead of `plugins`. */
  registry?: Registry<P>;
  /** The model a request uses unless `prepare` names another (a fallback, a per-tab override). */
  model: string;
  /** The window: a number, limits, or a lookup per model. @default the registered provider serving the model */
  contextWindow?: ContextWindowOption;
  /** The output budget of each request. @default the serving model's maxOutputTokens, else unknown (0) */
  maxOutputTokens?: number | ((model: string) => number | undefined);
  /** The threshold policy, or the id of a registered one. @default the first registered threshold policy, else halfWindowPolicy() */
  policy?: ThresholdPolicyPlugin | IdsOf<P, 'threshold-policy'>;
  /** Recent turns kept verbatim. @default 6 */
  keepRecentTurns?: number;
  /** Compaction aims at this fraction of the threshold, overriding the policy's target and {@link ContextManagerOptions.compactionDepth}. */
  target?: number;
  /**
   * How deep a threshold compaction goes when no fixed `target` is set: room below the threshold for a
   * number of steps of the run's typical growth, never deeper than the policy's target; `false` always
   * aims at the policy's target. @default { stepsAhead: 8, maxShare: 0.8 }
   */
  compactionDepth?: CompactionDepthOptions | false;
  /** After-compaction reinjection; `false` turns it off. */
  reinjection?: false | ReinjectionOptions;
  /** Tool definitions the host sends (`tools=`): counted in the fixed floor. */
  tools?: readonly unknown[];
  /** Decides the tools each request sends from the transcript (`deferTools` from @ctxkit/schema); its list replaces `tools`. */
  toolLoader?: ToolLoader;
  /** Compact before a request that measures over the threshold. @default true */
  proactive?: boolean;
  /** Compact once and retry when the provider rejects a request as too long. @default true */
  overflowRecovery?: boolean;
  /** The "token compression" switch: gates only on-device tiers; structural tiers always run. @default true */
  onDeviceCompaction?: boolean;
  /** Share of the target the protected recent region may take before it shrinks to rounds. @default 0.5 */
  recentRegionShare?: number;
  /**
   * The conversation this manager serves: tiers archive under it (`conversations:<id>:` in the store),
   * so conversations sharing a store never see each other's archives; pass the same id to
   * `createRestoreHandler`. Learned windows and calibrations stay fleet-wide. @default one unscoped archive
   */
  conversationId?: string;
  /** Milliseconds one store call may take before the tier making it gives up for this step. @default 2_000 */
  storeTimeoutMs?: number;
  /** A meter to measure with. @default createMeter over the registered tokenizer and estimator */
  meter?: Meter;
  /** The summarizer's time bound per compaction and how long one that timed out is skipped. @default { compactionTimeoutMs: 90_000, skipCompactions: 3 } */
  summarizerGuard?: SummarizerGuardOptions;
  onEvent?: (event: ManagerEvent) => void;
}

/** Options for reinjection after a compaction. */
export interface ReinjectionOptions {
  /** Tokens all reinjected blocks may take together; the largest is cut first. @default 10_000 */
  budgetTokens?: number;
  /** Called after every compaction, so the host can reset its read-dedup cache (files read earlier are gone from view). */
  resetReadCache?: () => void;
}

/** Options for one {@link ContextManager.prepare} call. */
export interface PrepareOptions {
  /** The model actually serving this request; its window and threshold apply. @default the manager's model */
  model?: string;
  /** Tool definitions for this request. @default the manager's tools */
  tools?: readonly unknown[];
  signal?: AbortSignal;
}

/** What {@link ContextManager.prepare} measured and did. */
export interface PrepareReport {
  model: string;
  limits: ModelLimits;
  maxOutputTokens: number;
  threshold: number;
  target: number;
  thresholdReason: string;
  measurement: Measurement;
  compacted: boolean;
  /** Why it did or did not compact. */
  decision: 'under-threshold' | 'not-confirmed' | 'proactive-off' | 'breaker-open' | 'compacted' | 'nothing-shrank' | 'forced';
  /** Tokens after compaction (local count), when it compacted. */
  after?: number;
  tiers: TierReport[];
  reinjected: ReinjectedBlock[];
  protectedRegion?: ProtectedRegion;
  refill: boolean;
  breaker: CompactionSnapshot;
  /** What the summarizer did in this compaction (answered, failed, timed out, skipped), when there is one. */
  summarizer?: SummarizerReport;
  /** Which tools were deferred, found and loaded, when a `toolLoader` is set. */
  tools?: ToolLoadingReport;
}

/** The result of {@link ContextManager.prepare}. */
export interface PrepareResult {
  /** The request to send: the same array that came in when nothing was compacted. */
  messages: readonly Message[];
  report: PrepareReport;
  /** The tools to send with this request, when a `toolLoader` is set. */
  tools?: readonly unknown[];
}

/**
 * The result of {@link ContextManager.recover}, one shape per `action`: narrow on it.
 * @example
 * ```ts
 * const result = await manager.recover(history, error);
 * if (result.action === 'retry') history = result.messages;
 * else if (result.action === 'lower-output') maxTokens = result.maxOutputTokens;
 * ```
 */
export type RecoverResult =
  /** Compacted once, below the target: retry with `messages`. */
  | { action: 'retry'; classification: ErrorClassification; messages: Message[]; report: PrepareReport }
  /** The answer did not fit: retry with the lower `maxOutputTokens`. */
  | { action: 'lower-output'; classification: ErrorClassification; maxOutputTokens: number }
  /** Rate limit, timeout or offline: go to the next provider in the fallback chain. */
  | { action: 'fallback'; classification: ErrorClassification }
  /** Nothing more to do, and why; `report` when a compaction was tried. */
  | { action: 'give-up'; classification: ErrorClassification; reason: string; report?: PrepareReport };

/** Keeps one agent run inside its model's window; `P` is the plugins it was created with. */
export interface ContextManager<P extends AnyPlugin = AnyPlugin> {
  /** Measures the request for the model serving it and compacts when it is over the threshold. */
  prepare(messages: readonly Message[], options?: PrepareOptions): Promise<PrepareResult>;
  /**
   * Records the usage the provider reported for the last request: anchors the next measurement and
   * calibrates estimates for that model. `messages` defaults to what the last `prepare` returned.
   */
  record(report: { model?: string; usage: Usage; messageCount: number; messages?: readonly Message[] }): void;
  /** Handles a provider error: compacts once on an overflow (never in a loop), or says what to do instead. */
  recover(messages: readonly Message[], error: unknown, options?: PrepareOptions): Promise<RecoverResult>;
  /** The breaker and attempt history. */
  state(): CompactionSnapshot;
  /** The limits and threshold that apply to a model now. */
  limitsFor(model?: string): Promise<{ limits: ModelLimits; threshold: number; target: number; reason: string }>;
  readonly meter: Meter;
  /** The registry, typed by the plugins that were registered (`manager.registry.tier('trim')`). */
  readonly registry: Registry<P>;
}
