import type { Message } from './message.ts';

/** Every kind of plugin the registry knows. */
export type PluginKind = 'tokenizer' | 'estimator' | 'threshold-policy' | 'tier' | 'summarizer' | 'provider' | 'store' | 'reinjection-source';

/**
 * The contract versions this release accepts, kind by kind. Each kind's contract is versioned on its own:
 * a `v2` of one contract widens that kind's entry (`tier: 'v1' | 'v2'`) and leaves the plugins of every
 * other kind, and the `v1` plugins of that kind, valid. {@link supportedSpecificationVersions} is the
 * same table at run time.
 */
export interface SpecificationVersions {
  tokenizer: 'v1';
  estimator: 'v1';
  'threshold-policy': 'v1';
  tier: 'v1';
  summarizer: 'v1';
  provider: 'v1';
  store: 'v1';
  'reinjection-source': 'v1';
}

/**
 * The contract versions this release accepts for one kind: `SpecificationVersionOf<'tier'>` is `'v1'`.
 * @example
 * ```ts
 * const version: SpecificationVersionOf<'summarizer'> = 'v1';
 * ```
 */
export type SpecificationVersionOf<Kind extends PluginKind> = SpecificationVersions[Kind];

/**
 * Any version some kind's contract is at.
 * @deprecated Contracts are versioned per kind; use {@link SpecificationVersionOf} for one kind's versions.
 */
export type SpecificationVersion = SpecificationVersions[PluginKind];

/**
 * What every plugin carries: the version of its kind's contract it implements, a literal kind, and an id
 * unique within its kind. A host reads `specificationVersion` to know what a plugin speaks; `Version`
 * narrows it when a kind's contract has more than one version (`PluginBase<'tier', Id, 'v2'>`).
 */
export interface PluginBase<Kind extends PluginKind, Id extends string, Version extends SpecificationVersionOf<Kind> = SpecificationVersionOf<Kind>> {
  readonly specificationVersion: Version;
  readonly kind: Kind;
  readonly id: Id;
}

/** Counts tokens exactly, as one model family's tokenizer does. */
export interface TokenizerPlugin<Id extends string = string> extends PluginBase<'tokenizer', Id> {
  /** Exact token count of plain text; special-token literals in it count as ordinary text. */
  count(text: string): number;
  /** Loads what `count` needs (ranks, a WASM module). Callers await it once before the first count. */
  load?(): Promise<void>;
}

/** Estimates tokens cheaply, without a tokenizer. */
export interface EstimatorPlugin<Id extends string = string> extends PluginBase<'estimator', Id> {
  estimate(text: string): number;
}

/** What a threshold policy is given: the window of the model serving this request and its output budget. */
export interface ThresholdInput {
  contextWindow: number;
  /** The output budget of the request; 0 when the caller does not know it. */
  maxOutputTokens: number;
}

/** When to compact, and how far down. */
export interface ThresholdDecision {
  /** Compact when the request measures more than this many tokens. */
  threshold: number;
  /** Compaction aims at or below this, so the next step does not compact again. */
  target: number;
  /** One line on which bound decided the threshold. */
  reason: string;
}

/** Decides the compaction threshold for a window. */
export interface ThresholdPolicyPlugin<Id extends string = string> extends PluginBase<'threshold-policy', Id> {
  decide(input: ThresholdInput): ThresholdDecision;
}

/** One key and the value to write under it, for a store's batched write ({@link StorePlugin.setItems}). */
export interface StoreEntry {
  readonly key: string;
  readonly value: unknown;
}

/** One entry in a store. Values are JSON-serialisable. */
export interface StorePlugin<Id extends string = string> extends PluginBase<'store', Id> {
  getItem<T = unknown>(key: string): Promise<T | null>;
  setItem(key: string, value: unknown): Promise<void>;
  removeItem(key: string): Promise<void>;
  /**
   * Writes `value` only when nothing is stored under `key`, as one atomic step, and says whether it wrote:
   * of several callers racing for one key (in this process or on other machines), exactly one gets `true`.
   * Microcompaction claims its handles (`r7`) with it, so managers sharing a store never hand out the same
   * one. A store that cannot do this atomically leaves it out, and callers fall back to read-then-write.
   */
  setItemIfAbsent?(key: string, value: unknown): Promise<boolean>;
  /**
   * Reads several keys in one call: the values in the order of `keys` (a key given twice answered twice),
   * `null` for an absent key, each a copy as `getItem` gives it. Microcompaction reads its fingerprints
   * and records with it, so a step costs a few round trips to a networked store instead of one per key.
   * A store without a batched read leaves it out, and callers read key by key.
   */
  getItems?(keys: readonly string[]): Promise<unknown[]>;
  /**
   * Writes several entries in one call, leaving the store as `setItem` called on each in order would: each
   * value copied and serialised as `setItem` does it, a key given twice holding its later value. Resolved,
   * every entry is stored; rejected, some may be and some not (a store need not write a batch atomically).
   * Microcompaction commits its records, fingerprints and counter with it, so a networked store is written
   * in one round trip. A store without a batched write leaves it out, and callers write key by key.
   */
  setItems?(entries: readonly StoreEntry[]): Promise<void>;
  /**
   * Removes several keys in one call, as `removeItem` on each would (an absent key is no error).
   * Microcompaction releases its unused handle reservations with it. Optional, as `setItems` is.
   */
  removeItems?(keys: readonly string[]): Promise<void>;
}

/** A request to write a summary of some messages. */
export interface SummarizeRequest {
  /** The messages to summarize, as data. */
  messages: readonly Message[];
  /** The instructions (template, framing). Summarizers send these as the system prompt. */
  instructions: string;
  /** An upper bound for the summary's length in tokens. */
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

/** Writes a summary of messages; a model behind an API, an on-device model, or plain code. */
export interface SummarizerPlugin<Id extends string = string> extends PluginBase<'summarizer', Id> {
  /** How many tokens of input the summarizer can read at once; spans larger than this are chunked. */
  readonly contextWindow?: number;
  summarize(request: SummarizeRequest): Promise<string>;
}

/** How a tier relates to the user's settings. */
export type TierCategory =
  /** Uses the active model (tier 0). */
  | 'model'
  /** Structural safety tiers (microcompaction, images, trim): always run when needed. */
  | 'structural'
  /** Runs a model on the user's device (tier 1): gated by the token-compression switch. */
  | 'on-device';

/** What the engine hands a tier: capabilities are passed in, never imported. */
export interface TierContext {
  /** Messages from this index on are the recent turns: the tier returns them verbatim. */
  readonly protectedStart: number;
  /** The tier aims at or below this many tokens for the whole request. */
  readonly targetTokens: number;
  /**
   * Tokens of the transcript this tier is handed, whole request (floor included), as the manager
   * measured it for this step: a tier starts from this figure instead of counting the input again.
   */
  readonly currentTokens: number;
  /** Tokens of the fixed floor (system prompt, tool schemas, request framing) that no tier can remove: `count([])`. */
  readonly floorTokens: number;
  /** Tokens of a transcript as the manager measures it (floor included). */
  count(messages: readonly Message[]): number;
  /** Tokens of a piece of text. */
  countText(text: string): number;
  readonly store: StorePlugin;
  readonly signal: AbortSignal;
  /** The active model's summarizer, when the host registered one. */
  readonly summarizer?: SummarizerPlugin;
  /** Progress for long-running tiers (model loading, chunk n of m). */
  progress(detail: { message: string; fraction?: number }): void;
}

/** What a tier did. `skipped` and `failed` leave the transcript as it was, and the next tier runs. */
export type TierOutcome =
  | {
      status: 'applied';
      messages: Message[];
      detail?: string;
      /**
       * Tokens of `messages`, whole request, as the tier measured them with `context.count`. The engine
       * checks the figure against its own measurement and reports a tier whose figure is off.
       */
      tokens?: number;
    }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; error?: unknown };

/**
 * One compaction step: the engine hands it the transcript and a {@link TierContext}, and it returns a
 * shorter transcript (`applied`), or says why not (`skipped`, `failed`). Every tier keeps these
 * invariants, whatever its input; `runTierConformance` of `@ctxkit/testkit` checks them on generated
 * transcripts, and the engine checks the output again before it uses it:
 *
 * - **The system message is never rewritten.** A leading `system` message comes back as it went in.
 * - **The protected recent turns stay verbatim.** Messages from `context.protectedStart` on come back
 *   unchanged, in order, at the end of the output.
 * - **Tool-call pairs stay intact.** The output is a valid transcript: every tool result follows the
 *   assistant call it answers, and a call that had a result still has one (a stub counts).
 * - **It never grows.** An applied output is never larger than its input by `context.count` (the
 *   engine fails a tier whose output grew and keeps the input).
 * - **It never mutates its input.** The messages it is handed (and their content and meta) are left as
 *   they were; the output is a new array.
 * - **Skipped and failed leave the transcript as it was.** Only `applied` changes anything; a tier that
 *   skips or fails has written nothing the transcript depends on, and the next tier runs.
 * - **Reported tokens are honest.** An applied outcome's `tokens`, when given, is `context.count` of
 *   its `messages`; the engine checks it against its own measurement.
 *
 * Every message a tier removes is traced: the message standing in for it names it in
 * `meta.ctxkit.replaces` (with `messageKey`), or it can be restored from `context.store`.
 */
export interface TierPlugin<Id extends string = string> extends PluginBase<'tier', Id> {
  readonly category: TierCategory;
  apply(messages: readonly Message[], context: TierContext): Promise<TierOutcome>;
}

/** Token usage a provider reported for one response. */
export interface Usage {
  /** Input tokens the provider counted, cached ones included. */
  inputTokens: number;
  /** Of those, how many were read from the prompt cache. */
  cachedInputTokens?: number;
  outputTokens?: number;
  /** True when the figure may undercount (Ollama's `prompt_eval_count` skips cached prompt tokens). */
  inputIsLowerBound?: boolean;
}

/** The kinds of provider error that change what the loop does next. */
export type ProviderErrorKind = 'context_overflow' | 'max_tokens' | 'rate_limit' | 'timeout' | 'offline' | 'other';

/** What a provider error means for the loop. */
export interface ErrorClassification {
  kind: ProviderErrorKind;
  /** Tokens the request had, when the error says so. */
  reportedTokens?: number;
  /** The limit the provider enforced, when the error says so. */
  limitTokens?: number;
  /** The input part of the request, when the error states input and requested output apart. */
  inputTokens?: number;
  /** The output budget the request asked for, when the error says so. */
  requestedOutputTokens?: number;
  retryAfterMs?: number;
  /** True when the next provider in a fallback chain should take the request. */
  fallback: boolean;
  /** The provider's message, for logs. */
  message?: string;
}

/** Limits of a model as served, and where they were learned. */
export interface ModelLimits {
  contextWindow: number;
  maxOutputTokens?: number;
  source: 'discovered' | 'learned' | 'catalog' | 'configured' | 'default';
}

/** A model API: limits of the model actually serving, usage, error meaning, and a summarizer. */
export interface ProviderPlugin<Id extends string = string> extends PluginBase<'provider', Id> {
  contextWindow(model: string, options?: { signal?: AbortSignal }): Promise<ModelLimits>;
  usage(response: unknown): Usage | undefined;
  /** What an error means; `model` lets an overflow that states the real limit teach that model's window. */
  classifyError(error: unknown, context?: { model?: string }): ErrorClassification;
  summarizer?(model: string, options?: { timeoutMs?: number }): SummarizerPlugin;
}

/** What a reinjection source sees after a compaction. */
export interface ReinjectionContext {
  /** The transcript before compaction (the source of the task, plans, todos). */
  readonly original: readonly Message[];
  /** The transcript after compaction. */
  readonly compacted: readonly Message[];
  /** Tokens this source may use. */
  readonly budgetTokens: number;
  countText(text: string): number;
  readonly signal: AbortSignal;
}

/** A block of text put back into the transcript after a compaction. */
export interface ReinjectionBlock {
  title: string;
  text: string;
}

/** Puts back what a run cannot work without after a compaction: the task, the plan, edited files. */
export interface ReinjectionSourcePlugin<Id extends string = string> extends PluginBase<'reinjection-source', Id> {
  /** Blocks to put back (one or several, e.g. one a file), or undefined when there is nothing to say. */
  collect(context: ReinjectionContext): Promise<ReinjectionBlock | readonly ReinjectionBlock[] | undefined>;
}

/** Any first-party or third-party plugin. */
export type AnyPlugin = TokenizerPlugin | EstimatorPlugin | ThresholdPolicyPlugin | TierPlugin | SummarizerPlugin | ProviderPlugin | StorePlugin | ReinjectionSourcePlugin;

/** Every plugin kind, in the order the docs list them. */
export const pluginKinds: readonly PluginKind[] = ['tokenizer', 'estimator', 'threshold-policy', 'tier', 'summarizer', 'provider', 'store', 'reinjection-source'];

/** For each kind, the contract versions a release accepts, as a list a host can check at run time. */
export type SupportedSpecificationVersions = { readonly [Kind in PluginKind]: readonly SpecificationVersionOf<Kind>[] };

/**
 * The contract versions this release accepts, kind by kind (the run-time form of {@link SpecificationVersions}).
 * `createRegistry` refuses a plugin whose version is not listed for its kind.
 * @example
 * ```ts
 * supportedSpecificationVersions.tier; // ['v1']: the tier contract versions this release runs
 * ```
 */
export const supportedSpecificationVersions: SupportedSpecificationVersions = {
  tokenizer: ['v1'],
  estimator: ['v1'],
  'threshold-policy': ['v1'],
  tier: ['v1'],
  summarizer: ['v1'],
  provider: ['v1'],
  store: ['v1'],
  'reinjection-source': ['v1'],
};
