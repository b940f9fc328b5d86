import { type AnyPlugin, CtxkitError, createRegistry, createTranscriptValidator, memoryStore, type Registry, type ThresholdPolicyPlugin } from '@ctxkit/core';
import { createCompactionState, halfWindowPolicy } from '@ctxkit/threshold';
import { createMeter, type Meter } from '@ctxkit/tokens';
import { archiveStore } from './archive-store.ts';
import type { Compaction } from './compact.ts';
import { createCompactionDepth } from './compaction-depth.ts';
import { decideWindow } from './decide-window.ts';
import type { ManagerEvent } from './events.ts';
import { createInFlight } from './in-flight.ts';
import type { ManagerParts } from './manager-parts.ts';
import type { ContextManager, ContextManagerOptions } from './manager-types.ts';
import { prepare } from './prepare.ts';
import { recordUsage } from './record-usage.ts';
import { recover } from './recover.ts';
import { createSummarizerGuard } from './summarizer-guard.ts';
import { checkToolOptions } from './tool-loader.ts';

/** The threshold policy: the one passed, the registered one it names, the first registered, or the half-window default. */
function policyOf(option: ThresholdPolicyPlugin | string | undefined, registry: Registry): ThresholdPolicyPlugin {
  if (typeof option === 'string') return registry.get('threshold-policy', option);
  return option ?? registry.all('threshold-policy')[0] ?? halfWindowPolicy();
}

/** The meter over the registered tokenizer and estimator. */
function meterOf(registry: Registry): Meter {
  const tokenizer = registry.all('tokenizer')[0];
  const estimator = registry.all('estimator')[0];
  return createMeter({ ...(tokenizer ? { tokenizer } : {}), ...(estimator ? { estimator } : {}) });
}

/** Sends an event to the host's listener; a broken logger must not break the agent's request. */
function emitterOf(onEvent: ContextManagerOptions['onEvent']): (event: ManagerEvent) => void {
  return (event) => {
    try {
      onEvent?.(event);
    } catch {
      // ignored on purpose: see above
    }
  };
}

/** The parts the steps share, resolved from the options and the registry once. */
function createManagerParts(options: ContextManagerOptions, registry: Registry): ManagerParts {
  return {
    options,
    tiers: registry.all('tier'),
    providers: registry.all('provider'),
    reinjectionSources: registry.all('reinjection-source'),
    summarizer: registry.all('summarizer')[0],
    store: archiveStore(registry.all('store')[0] ?? memoryStore(), options),
    policy: policyOf(options.policy, registry),
    meter: options.meter ?? meterOf(registry),
    breaker: createCompactionState(),
    // How deep a compaction goes: from the run's growth, unless a fixed target share is set.
    depth: options.target === undefined && options.compactionDepth !== false ? createCompactionDepth(options.compactionDepth || {}) : undefined,
    summarizerGuard: createSummarizerGuard(options.summarizerGuard),
    validator: createTranscriptValidator(),
    learned: new Map(),
    recovered: new WeakMap(),
    inFlight: createInFlight<Compaction>(),
    memory: { lastWindowKey: undefined, lastSent: undefined },
    emit: emitterOf(options.onEvent),
  };
}

/**
 * Every option {@link createContextManager} reads: a record over the keys of `ContextManagerOptions`, so an
 * option added to the interface and not here (or named here and not there) fails to compile.
 */
const optionNames: ReadonlySet<string> = new Set(
  Object.keys({
    plugins: true,
    registry: true,
    model: true,
    contextWindow: true,
    maxOutputTokens: true,
    policy: true,
    keepRecentTurns: true,
    target: true,
    compactionDepth: true,
    reinjection: true,
    tools: true,
    toolLoader: true,
    proactive: true,
    overflowRecovery: true,
    onDeviceCompaction: true,
    recentRegionShare: true,
    conversationId: true,
    storeTimeoutMs: true,
    meter: true,
    summarizerGuard: true,
    onEvent: true,
  } satisfies Record<keyof ContextManagerOptions, true>),
);

/** What to say about an option that is a plugin here (the `ctxkit` preset takes some of them as options). */
const pluginOptionHints: Readonly<Record<string, string>> = {
  store: 'a store is a plugin here: pass it in `plugins` (createCtxkit of the ctxkit package takes it as `store`)',
  summarizer: 'a summarizer is a plugin here: pass it in `plugins` (createCtxkit of the ctxkit package takes it as `summarizer`)',
  tokenizer: 'a tokenizer is a plugin here: pass it in `plugins`',
  estimator: 'an estimator is a plugin here: pass it in `plugins`',
  provider: 'a provider is a plugin here: pass it in `plugins`',
  providers: 'providers are plugins here: pass them in `plugins`',
  tiers: 'tiers are plugins here: pass them in `plugins`, in the order they run',
};

/**
 * Refuses an option the manager does not read, which would otherwise be dropped without a word (a `store`
 * passed beside `plugins` left archives in memory). TypeScript catches these in an object literal; a spread
 * configuration or plain JavaScript does not. A key whose value is undefined is let through.
 */
function checkOptionNames(options: object): void {
  const unknown = Object.entries(options).find(([name, value]) => value !== undefined && !optionNames.has(name))?.[0];
  if (unknown === undefined) return;
  const hint = pluginOptionHints[unknown] ?? `its options are ${[...optionNames].join(', ')}`;
  throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'engine', message: `createContextManager has no option ${JSON.stringify(unknown)}: ${hint}` });
}

/**
 * Creates the context manager of one agent run: `prepare` before each request, `record` after each
 * response, `recover` on a provider error. The steps are module functions (prepare.ts, compact.ts,
 * tier-loop.ts, recover.ts); this factory resolves the plugins and holds the state they share.
 * @throws CtxkitError INVALID_ARGUMENT for a missing model, a bad option or an option it does not have; PLUGIN_NOT_FOUND for a `policy` id that is not registered
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
export function createContextManager<P extends AnyPlugin = AnyPlugin>(options: ContextManagerOptions<P>): ContextManager<P> {
  if (!options || typeof options.model !== 'string' || options.model === '') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'engine', message: 'createContextManager needs a model id (the model a request uses unless prepare names another)' });
  }
  checkOptionNames(options);
  checkToolOptions('createContextManager', options);
  const registry: Registry<P> = options.registry ?? createRegistry(options.plugins ?? []);
  const parts = createManagerParts(options, registry);
  return {
    prepare: (messages, prepareOptions) => prepare(parts, messages, prepareOptions),
    record: (report) => recordUsage(parts, report),
    recover: (messages, error, recoverOptions) => recover(parts, messages, error, recoverOptions),
    state: () => parts.breaker.snapshot(),
    limitsFor: async (model = options.model) => {
      const window = await decideWindow(parts, model);
      return { limits: window.limits, threshold: window.threshold, target: window.target, reason: window.reason };
    },
    meter: parts.meter,
    registry,
  };
}
