import type { Message, ProviderPlugin, ReinjectionSourcePlugin, StorePlugin, SummarizerPlugin, ThresholdPolicyPlugin, TierPlugin, TranscriptValidator } from '@ctxkit/core';
import type { CompactionState } from '@ctxkit/threshold';
import type { Meter } from '@ctxkit/tokens';
import type { Compaction } from './compact.ts';
import type { createCompactionDepth } from './compaction-depth.ts';
import type { ManagerEvent } from './events.ts';
import type { createInFlight } from './in-flight.ts';
import type { ContextManagerOptions } from './manager-types.ts';
import type { createSummarizerGuard } from './summarizer-guard.ts';

/** The request the last `prepare` (or `recover`) returned, and its tools: what a following `record()` reports on. */
export interface SentRequest {
  readonly messages: readonly Message[];
  readonly tools: readonly unknown[] | undefined;
}

/** What a manager remembers from one step to the next, besides the breaker. */
export interface ManagerMemory {
  /** `model|contextWindow|maxOutputTokens` of the last window announced, so a `window` event fires only on a change. */
  lastWindowKey: string | undefined;
  lastSent: SentRequest | undefined;
}

/**
 * What the steps of one manager (`prepare`, `compact`, `recover`, `record`) share: its options, the
 * plugins resolved from the registry, the meter, and the state kept between steps. Built once by
 * `createContextManager`; the steps are module functions that take it as their first argument.
 */
export interface ManagerParts {
  readonly options: ContextManagerOptions;
  /** Tiers in the order they run. */
  readonly tiers: readonly TierPlugin[];
  readonly providers: readonly ProviderPlugin[];
  readonly reinjectionSources: readonly ReinjectionSourcePlugin[];
  /** The registered summarizer; without one, the serving provider's (see `summarizerFor`). */
  readonly summarizer: SummarizerPlugin | undefined;
  /** The registered store (else a memory store), scoped to the conversation and time-bounded. */
  readonly store: StorePlugin;
  readonly policy: ThresholdPolicyPlugin;
  readonly meter: Meter;
  /** The circuit breaker and the attempt history. */
  readonly breaker: CompactionState;
  /** How deep a threshold compaction goes, from the run's growth; undefined when a fixed `target` is set or it is off. */
  readonly depth: ReturnType<typeof createCompactionDepth> | undefined;
  readonly summarizerGuard: ReturnType<typeof createSummarizerGuard>;
  readonly validator: TranscriptValidator;
  /** Windows learned from overflow errors, by model. */
  readonly learned: Map<string, number>;
  /**
   * Transcripts produced by an overflow recovery, with their length then: recovering the same one again
   * (no new message since) would loop, so it gives up instead.
   */
  readonly recovered: WeakMap<readonly Message[], number>;
  /** The compactions running now, shared by a `prepare` of the same transcript. */
  readonly inFlight: ReturnType<typeof createInFlight<Compaction>>;
  readonly memory: ManagerMemory;
  /** Sends an event to `options.onEvent`; a logger that throws is ignored. */
  emit(event: ManagerEvent): void;
}
