import {
  type AnyPlugin,
  assertValidTranscript,
  CtxkitError,
  createRegistry,
  createTranscriptValidator,
  type ErrorClassification,
  type Falsy,
  type Message,
  type ModelLimits,
  memoryStore,
  segmentRounds,
  type ProviderPlugin,
  type Registry,
  type ReinjectionSourcePlugin,
  type StorePlugin,
  type SummarizerPlugin,
  type ThresholdPolicyPlugin,
  type TierContext,
  type TierOutcome,
  type TierPlugin,
  type Usage,
  validateTranscript,
} from '@ctxkit/core';
import { type CompactionSnapshot, createCompactionState, halfWindowPolicy } from '@ctxkit/threshold';
import { createMeter, type Measurement, type Meter } from '@ctxkit/tokens';
import { archiveStore } from './archive-store.ts';
import type { ManagerEvent, ReinjectedBlock, TierReport } from './events.ts';
import { createInFlight } from './in-flight.ts';
import { type ContextWindowOption, providerFor, resolveLimits } from './model-limits.ts';
import { type ProtectedRegion, protectedRegion } from './protected-region.ts';
import { type CompactionDepthOptions, createCompactionDepth } from './compaction-depth.ts';
import { collectReinjection } from './reinjection.ts';
import { createSummarizerGuard, type SummarizerGuardOptions, type SummarizerReport } from './summarizer-guard.ts';
import { loadTools, type ToolLoader, type ToolLoadingReport } from './tool-loader.ts';

const source = 'engine';

/** Options for {@link createContextManager}. */
export interface ContextManagerOptions {
  /** Plugins (tiers in the order they run, tokenizer, estimator, summarizer, providers, store, reinjection sources); falsy entries are skipped. */
  plugins?: readonly (AnyPlugin | Falsy)[];
  /** A registry instead of `plugins`. */
  registry?: Registry;
  /** The model a request uses unless `prepare` names another (a fallback, a per-tab override). */
  model: string;
  /** The window: a number, limits, or a lookup per model. @default the registered provider serving the model */
  contextWindow?: ContextWindowOption;
  /** The output budget of each request. @default the serving model's maxOutputTokens, else unknown (0) */
  maxOutputTokens?: number | ((model: string) => number | undefined);
  /** The threshold policy, or the id of a registered one. @default halfWindowPolicy() */
  policy?: ThresholdPolicyPlugin | string;
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

/** Keeps one agent run inside its model's window. */
export interface ContextManager {
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
  readonly registry: Registry;
}

function isClassification(value: unknown): value is ErrorClassification {
  return typeof value === 'object' && value !== null && typeof (value as ErrorClassification).kind === 'string' && typeof (value as ErrorClassification).fallback === 'boolean';
}

const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

/**
 * Creates the context manager of one agent run: `prepare` before each request, `record` after each
 * response, `recover` on a provider error.
 * @throws CtxkitError INVALID_ARGUMENT for a missing model or a bad option
 * @example
 * ```ts
 * const manager = createContextManager({
 *   model: 'gpt-4o',
 *   contextWindow: 128_000,
 *   plugins: [summaryTier(), microcompactTier(), imageStripTier(), trimTier(), tiktokenCounter('o200k_base'), taskSource()],
 * });
 * const { messages, report } = await manager.prepare(history, { model: servingModel });
 * const response = await callModel(messages);
 * manager.record({ model: servingModel, usage: { inputTokens: response.usage.prompt_tokens }, messageCount: messages.length });
 * ```
 */
export function createContextManager(options: ContextManagerOptions): ContextManager {
  if (!options || typeof options.model !== 'string' || options.model === '') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: 'createContextManager needs a model id (the model a request uses unless prepare names another)' });
  }
  const registry: Registry = options.registry ?? createRegistry(options.plugins ?? []);
  const keepRecentTurns = options.keepRecentTurns ?? 6;
  const recentRegionShare = options.recentRegionShare ?? 0.5;
  const tiers = registry.all('tier') as TierPlugin[];
  const providers = registry.all('provider') as ProviderPlugin[];
  const store: StorePlugin = archiveStore((registry.all('store')[0] as StorePlugin | undefined) ?? memoryStore(), options);
  const reinjectionSources = registry.all('reinjection-source') as ReinjectionSourcePlugin[];
  const policy: ThresholdPolicyPlugin =
    typeof options.policy === 'string'
      ? (registry.get('threshold-policy', options.policy) as ThresholdPolicyPlugin)
      : (options.policy ?? (registry.all('threshold-policy')[0] as ThresholdPolicyPlugin | undefined) ?? halfWindowPolicy());
  const meter =
    options.meter ??
    createMeter({
      ...(registry.all('tokenizer')[0] ? { tokenizer: registry.all('tokenizer')[0]! } : {}),
      ...(registry.all('estimator')[0] ? { estimator: registry.all('estimator')[0]! } : {}),
    });
  const state = createCompactionState();
  // How deep a compaction goes: from the run's growth, unless a fixed target share is set.
  const depth = options.target === undefined && options.compactionDepth !== false ? createCompactionDepth(options.compactionDepth || {}) : undefined;
  const summarizerGuard = createSummarizerGuard(options.summarizerGuard);
  const validator = createTranscriptValidator();
  const learned = new Map<string, number>();
  // Transcripts produced by an overflow recovery, with their length then: recovering the same one again
  // (no new message since) would loop, so it gives up instead.
  const recovered = new WeakMap<readonly Message[], number>();
  let lastWindow: string | undefined;
  // What the last prepare returned and for which tools: the request a following record() reports on.
  let lastSent: { messages: readonly Message[]; tools: readonly unknown[] | undefined } | undefined;
  const emit = (event: ManagerEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // a broken logger must not break the agent's request
    }
  };

  const outputBudget = (model: string, limits: ModelLimits) => {
    const option = typeof options.maxOutputTokens === 'function' ? options.maxOutputTokens(model) : options.maxOutputTokens;
    return option ?? limits.maxOutputTokens ?? 0;
  };

  const decide = async (model: string, signal?: AbortSignal) => {
    const limits = await resolveLimits(model, options.contextWindow, providers, learned, signal);
    const maxOutputTokens = outputBudget(model, limits);
    const decision = policy.decide({ contextWindow: limits.contextWindow, maxOutputTokens });
    const target = options.target === undefined ? decision.target : Math.floor(decision.threshold * options.target);
    const key = `${model}|${limits.contextWindow}|${maxOutputTokens}`;
    if (key !== lastWindow) {
      lastWindow = key;
      emit({ type: 'window', model, limits, threshold: decision.threshold, target, reason: decision.reason });
    }
    return { limits, maxOutputTokens, threshold: decision.threshold, target, reason: decision.reason };
  };

  const summarizerFor = (model: string): SummarizerPlugin | undefined => {
    const registered = registry.all('summarizer')[0] as SummarizerPlugin | undefined;
    if (registered) return registered;
    const serving = providerFor(model, providers);
    return serving?.provider.summarizer?.(serving.model);
  };

  /** Runs the tiers in order until the transcript is at or below the target. */
  const compact = async (
    messages: readonly Message[],
    setting: { model: string; tools: readonly unknown[] | undefined; target: number; threshold: number; trigger: 'threshold' | 'overflow'; signal: AbortSignal | undefined },
  ) => {
    await meter.ready();
    // After ready() the meter counts exactly when it has a tokenizer, and estimates (calibrated) without one.
    const count = (list: readonly Message[]) => meter.countMessages(list, { tools: setting.tools, model: setting.model });
    const countText = (text: string) => meter.countText(text, { model: setting.model });
    const before = count(messages);
    const floorTokens = count([]);
    const startedAt = now();
    emit({ type: 'compaction-start', model: setting.model, tokens: before, threshold: setting.threshold, target: setting.target, trigger: setting.trigger });
    const signal = setting.signal ?? new AbortController().signal;
    const guarded = summarizerGuard.begin(summarizerFor(setting.model));
    const summarizer = guarded.summarizer;
    const reports: TierReport[] = [];
    let current: readonly Message[] = messages;
    let currentTokens = before;
    const regionOf = (list: readonly Message[], keep: number) =>
      protectedRegion(list, keep, setting.target * recentRegionShare, (start) => meter.countMessages(list.slice(start), { model: setting.model }));
    // The protected region is chosen once, on the transcript as it came, and kept as a suffix of fixed
    // length: every tier leaves it verbatim at the end, so its start moves only with what tiers fold.
    let region: ProtectedRegion = regionOf(messages, keepRecentTurns);
    let suffix = messages.length - region.start;

    const runTiers = async () => {
      for (const tier of tiers) {
        if (currentTokens <= setting.target) break;
        const tierStart = now();
        if (tier.category === 'on-device' && options.onDeviceCompaction === false) {
          reports.push({ id: tier.id, status: 'skipped', reason: 'on-device compaction is switched off', before: currentTokens, after: currentTokens, durationMs: 0 });
          continue;
        }
        emit({ type: 'tier-start', tier: tier.id, tokens: currentTokens });
        const context: TierContext = {
          protectedStart: current.length - suffix,
          targetTokens: setting.target,
          currentTokens,
          floorTokens,
          count,
          countText,
          store,
          signal,
          ...(summarizer ? { summarizer } : {}),
          progress: (detail) => emit({ type: 'tier-progress', tier: tier.id, ...detail }),
        };
        let outcome: TierOutcome;
        try {
          outcome = await tier.apply(current, context);
        } catch (error) {
          outcome = { status: 'failed', reason: `threw: ${error instanceof Error ? error.message : String(error)}`, error };
        }
        let after = currentTokens;
        if (outcome.status === 'applied') {
          const broken = checkOutput(current, outcome.messages, suffix);
          after = broken ? currentTokens : count(outcome.messages);
          if (broken || after > currentTokens) {
            outcome = { status: 'failed', reason: broken ?? `output grew from ${currentTokens} to ${after} tokens` };
            after = currentTokens;
          } else {
            current = outcome.messages;
          }
        }
        const reason = outcome.status === 'applied' ? outcome.detail : outcome.reason;
        const report: TierReport = { id: tier.id, status: outcome.status, ...(reason ? { reason } : {}), before: currentTokens, after, durationMs: Math.round(now() - tierStart) };
        reports.push(report);
        emit({ type: 'tier-end', tier: tier.id, report });
        currentTokens = after;
      }
    };
    await runTiers();
    // Still over the threshold with a wide recent region: the region itself is what does not fit. A
    // second pass keeps only the last round verbatim, rather than sending a request that overflows.
    const lastRound = segmentRounds(current).at(-1)?.start ?? current.length;
    if (currentTokens > setting.threshold && current.length - lastRound < suffix) {
      region = { start: lastRound, by: 'rounds', size: 1 };
      suffix = current.length - lastRound;
      await runTiers();
    }

    let reinjected: ReinjectedBlock[] = [];
    const applied = reports.some((report) => report.status === 'applied');
    if (applied && options.reinjection !== false && reinjectionSources.length > 0) {
      const result = await collectReinjection(reinjectionSources, {
        original: messages,
        compacted: current,
        budgetTokens: options.reinjection?.budgetTokens ?? 10_000,
        countText,
        signal,
      });
      for (const failure of result.failures) emit({ type: 'reinjection-failed', ...failure });
      if (result.message) {
        const at = current.length - suffix;
        const withBlock = [...current.slice(0, at), result.message, ...current.slice(at)];
        current = withBlock;
        currentTokens = count(withBlock);
        reinjected = result.blocks;
        emit({ type: 'reinjected', blocks: reinjected });
      }
    }
    if (applied && options.reinjection !== false) options.reinjection?.resetReadCache?.();
    const attempt = state.recordAttempt(before, currentTokens);
    if (attempt.opened) {
      const snapshot = state.snapshot();
      emit({ type: 'breaker-open', consecutiveFailures: snapshot.consecutiveFailures, retryAtTokens: snapshot.retryAtTokens ?? 0 });
    }
    if (applied) meter.reset();
    emit({ type: 'compaction-end', model: setting.model, before, after: currentTokens, shrunk: currentTokens < before, durationMs: Math.round(now() - startedAt) });
    const summarizerReport = guarded.finish();
    return { messages: [...current], before, after: currentTokens, tiers: reports, reinjected, region, applied, summarizerReport };
  };

  /** Why a tier's output cannot be used, or undefined when it keeps the invariants engine-side checks can see. */
  const checkOutput = (input: readonly Message[], output: readonly Message[], suffix: number): string | undefined => {
    if (!Array.isArray(output)) return 'returned no message array';
    if (output.length < suffix || input.slice(input.length - suffix).some((message, index) => output[output.length - suffix + index] !== message && JSON.stringify(output[output.length - suffix + index]) !== JSON.stringify(message))) {
      return 'changed the protected recent messages';
    }
    if (input[0]?.role === 'system' && output[0] !== input[0] && (output[0]?.role !== 'system' || output[0].content !== input[0].content)) {
      return 'changed the system message';
    }
    const issues = validateTranscript(output);
    return issues.length > 0 ? `returned an invalid transcript (message ${issues[0]!.index} ${issues[0]!.field}: ${issues[0]!.problem})` : undefined;
  };

  type Setting = Awaited<ReturnType<typeof decide>>;
  type Compaction = Awaited<ReturnType<typeof compact>>;
  const inFlight = createInFlight<Compaction>();
  /** The report of a prepare or a recover: what was measured and decided, and what a compaction did. */
  const reportOf = (model: string, setting: Setting, measurement: Measurement, decision: PrepareReport['decision'], refill: boolean, result?: Compaction): PrepareReport => ({
    model,
    limits: setting.limits,
    maxOutputTokens: setting.maxOutputTokens,
    threshold: setting.threshold,
    target: setting.target,
    thresholdReason: setting.reason,
    measurement,
    compacted: result?.applied ?? false,
    decision,
    ...(result ? { after: result.after } : {}),
    tiers: result?.tiers ?? [],
    reinjected: result?.reinjected ?? [],
    ...(result?.region ? { protectedRegion: result.region } : {}),
    refill,
    breaker: state.snapshot(),
    ...(result?.summarizerReport ? { summarizer: result.summarizerReport } : {}),
  });

  const prepare = async (messages: readonly Message[], prepareOptions: PrepareOptions = {}): Promise<PrepareResult> => {
    const issues = validator.check(messages);
    if (issues.length > 0) assertValidTranscript(messages, source);
    const model = prepareOptions.model ?? options.model;
    const loading = options.toolLoader ? loadTools(options.toolLoader, messages) : undefined;
    const tools = loading?.tools ?? prepareOptions.tools ?? options.tools;
    const withTools = (result: PrepareResult): PrepareResult => (loading ? { ...result, tools: loading.tools, report: { ...result.report, tools: loading.report } } : result);
    const setting = await decide(model, prepareOptions.signal);
    const measureOptions = { ...(tools ? { tools } : {}), model };
    let measurement = meter.measure(messages, measureOptions);
    depth?.observe(measurement.total);
    const observation = state.observe(measurement.total, setting.threshold);
    if (observation.refill) emit({ type: 'refill', model, tokens: measurement.total, threshold: setting.threshold, step: observation.step });
    const unchanged = (decision: PrepareReport['decision']): PrepareResult => {
      lastSent = { messages, tools };
      return withTools({ messages, report: reportOf(model, setting, measurement, decision, observation.refill) });
    };
    if (measurement.total <= setting.threshold) return unchanged('under-threshold');
    if (options.proactive === false) return unchanged('proactive-off');
    if (!measurement.confirmed && measurement.source !== 'exact') {
      measurement = await meter.exceeds(messages, setting.threshold, measureOptions);
      if (measurement.total <= setting.threshold) return unchanged('not-confirmed');
    }
    if (!state.canCompact(measurement.total)) {
      emit({ type: 'breaker-held', tokens: measurement.total, retryAtTokens: state.snapshot().retryAtTokens ?? 0 });
      return unchanged('breaker-open');
    }
    const target = depth ? depth.target(setting.threshold, setting.target) : setting.target;
    // A prepare of the same transcript while it is compacting shares that compaction (one summarizer call).
    const result = await inFlight.share(messages, model, tools, () =>
      compact(messages, { model, tools, target, threshold: setting.threshold, trigger: 'threshold', signal: prepareOptions.signal }),
    ).promise;
    if (result.applied) depth?.compacted(result.after);
    lastSent = { messages: result.messages, tools };
    const decision = result.applied && result.after < result.before ? 'compacted' : 'nothing-shrank';
    return withTools({ messages: result.messages, report: reportOf(model, { ...setting, target }, measurement, decision, observation.refill, result) });
  };

  const record: ContextManager['record'] = ({ model, usage, messageCount, messages }) => {
    if (!usage || !(Number.isFinite(usage.inputTokens) && usage.inputTokens >= 0)) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `record needs usage.inputTokens as a number of zero or more, got ${String(usage?.inputTokens)}` });
    }
    const sent = messages ?? lastSent?.messages;
    meter.record({
      inputTokens: usage.inputTokens,
      messageCount,
      model: model ?? options.model,
      ...(sent ? { messages: sent } : {}),
      ...(lastSent?.tools ? { tools: lastSent.tools } : {}),
      ...(usage.inputIsLowerBound ? { inputIsLowerBound: true } : {}),
    });
  };

  const recover: ContextManager['recover'] = async (messages, error, recoverOptions = {}) => {
    const model = recoverOptions.model ?? options.model;
    const serving = providerFor(model, providers);
    const classification: ErrorClassification = isClassification(error)
      ? error
      : serving
        ? serving.provider.classifyError(error, { model: serving.model })
        : { kind: 'other', fallback: false, message: error instanceof Error ? error.message : String(error) };
    const done = (result: RecoverResult): RecoverResult => {
      emit({ type: 'recover', model, action: result.action, classification });
      return result;
    };
    if (classification.kind === 'max_tokens') {
      const setting = await decide(model, recoverOptions.signal);
      const current = setting.maxOutputTokens || 4_096;
      const room = classification.limitTokens !== undefined && classification.reportedTokens !== undefined ? classification.limitTokens - classification.reportedTokens : undefined;
      const lowered = Math.max(256, Math.floor(room !== undefined && room > 0 && room < current ? room : current / 2));
      return done({ action: 'lower-output', classification, maxOutputTokens: lowered });
    }
    if (classification.kind !== 'context_overflow') {
      return done(classification.fallback ? { action: 'fallback', classification } : { action: 'give-up', classification, reason: `a ${classification.kind} error is not one compaction can fix` });
    }
    if (options.overflowRecovery === false) return done({ action: 'give-up', classification, reason: 'overflow recovery is switched off' });
    if (recovered.get(messages) === messages.length) return done({ action: 'give-up', classification, reason: 'this transcript was already compacted after an overflow; not retrying again' });
    if (classification.limitTokens !== undefined && classification.limitTokens > 0) {
      const known = learned.get(model);
      if (known === undefined || classification.limitTokens < known) {
        learned.set(model, classification.limitTokens);
        emit({ type: 'window-learned', model, contextWindow: classification.limitTokens, from: classification });
      }
    }
    const setting = await decide(model, recoverOptions.signal);
    const tools = recoverOptions.tools ?? options.tools;
    const measurement = meter.measure(messages, { ...(tools ? { tools } : {}), model });
    const result = await compact(messages, { model, tools, target: setting.target, threshold: setting.threshold, trigger: 'overflow', signal: recoverOptions.signal });
    recovered.set(result.messages, result.messages.length);
    lastSent = { messages: result.messages, tools };
    const report = reportOf(model, setting, measurement, 'forced', false, result);
    if (!result.applied || result.after >= result.before) {
      return done({ action: 'give-up', classification, report, reason: 'no tier could shrink the transcript' });
    }
    return done({ action: 'retry', classification, messages: result.messages, report });
  };

  return {
    prepare,
    record,
    recover,
    state: () => state.snapshot(),
    limitsFor: async (model = options.model) => {
      const setting = await decide(model);
      return { limits: setting.limits, threshold: setting.threshold, target: setting.target, reason: setting.reason };
    },
    meter,
    registry,
  };
}
