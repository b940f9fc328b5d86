import { CtxkitError, type ErrorClassification, type ModelLimits, type ProviderPlugin } from '@ctxkit/core';

/** One (provider, model) a fallback chain can send a request to. */
export interface FallbackTarget<Provider extends ProviderPlugin = ProviderPlugin> {
  provider: Provider;
  model: string;
}

/** What a task run by the chain is given: the target to call and the signal to honour. */
export interface FallbackContext<Provider extends ProviderPlugin = ProviderPlugin> extends FallbackTarget<Provider> {
  /** 0 for the first call of this run, then 1, 2, ... across retries and targets. */
  attempt: number;
  signal: AbortSignal | undefined;
  /** The window of this target: ask it on every call, so the threshold follows the model serving. */
  contextWindow(): Promise<ModelLimits>;
}

/** One failed call of a run and what the chain did about it. */
export interface FallbackAttempt<Provider extends ProviderPlugin = ProviderPlugin> {
  target: FallbackTarget<Provider>;
  error: unknown;
  classification: ErrorClassification;
  /** `retry`: the same target again after `waitedMs`; `fallback`: the next target; `fail`: given up. */
  action: 'retry' | 'fallback' | 'fail';
  waitedMs?: number;
}

/** Told when the chain moves to another target (or back to an earlier one whose cooldown ended). */
export interface FallbackSwitch<Provider extends ProviderPlugin = ProviderPlugin> {
  from: FallbackTarget<Provider>;
  to: FallbackTarget<Provider>;
  /** Why it left `from`; undefined when it went back to an earlier target after its cooldown. */
  classification?: ErrorClassification;
  error?: unknown;
}

/** Options for {@link withFallback}. */
export interface FallbackOptions<Provider extends ProviderPlugin = ProviderPlugin> {
  /** Retries of the same target in one run, where the provider names a wait. @default 2 */
  maxRetries?: number;
  /** The longest `retry-after` the chain waits for; a longer one sends the request on. @default 20_000 */
  maxRetryDelayMs?: number;
  /** How long a target that failed is skipped by later runs (longer when its retry-after says so). @default 60_000 */
  cooldownMs?: number;
  /** Called when the serving target changes: point the context manager at `to.model`. */
  onSwitch?: (change: FallbackSwitch<Provider>) => void;
  /** Called before the chain waits to retry the same target. */
  onRetry?: (attempt: FallbackAttempt<Provider>) => void;
  /** Classifies a failure. @default the failing target's `provider.classifyError` */
  classify?: (error: unknown, target: FallbackTarget<Provider>) => ErrorClassification;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

/** What a successful run returns: the task's result, the target that served it, and what failed first. */
export interface FallbackResult<Result, Provider extends ProviderPlugin = ProviderPlugin> {
  result: Result;
  target: FallbackTarget<Provider>;
  attempts: FallbackAttempt<Provider>[];
}

/** A fallback chain over ordered targets. */
export interface FallbackChain<Provider extends ProviderPlugin = ProviderPlugin> {
  readonly targets: readonly FallbackTarget<Provider>[];
  /** The target that served the last successful run (the primary before any run). */
  readonly current: FallbackTarget<Provider>;
  /**
   * Runs a task on the first available target; on a rate limit, timeout or outage (any error classified
   * `fallback: true`) it retries where the provider names a short wait, else moves on to the next target.
   * Other errors (an overflow, a bad request) are thrown as they are: they follow the request, not the provider.
   * @throws the task's own error when it should not fall back; CtxkitError PROVIDER_ERROR when every target failed
   */
  run<Result>(task: (context: FallbackContext<Provider>) => Promise<Result>, options?: { signal?: AbortSignal }): Promise<FallbackResult<Result, Provider>>;
  /** The limits of the current target's model. */
  contextWindow(options?: { signal?: AbortSignal }): Promise<ModelLimits>;
  /** Forgets cooldowns: the next run starts at the primary. */
  reset(): void;
}

function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const describeTarget = (target: FallbackTarget) => `${target.provider.id} ${target.model}`;

/**
 * A fallback chain: on a rate limit, timeout or outage the request goes to the next (provider, model);
 * a short `retry-after` is honoured on the same target first (bounded), a long one or a daily quota is not.
 * The caller learns which target served, so the context manager's window follows the model actually serving.
 * @throws CtxkitError INVALID_ARGUMENT for an empty or malformed target list
 * @example
 * ```ts
 * const chain = withFallback([{ provider: openaiProvider(), model: 'gpt-4o' }, { provider: openrouterProvider(), model: 'openai/gpt-4o-mini' }],
 *   { onSwitch: ({ to }) => console.log(`now serving: ${to.model}`) });
 * const { result, target } = await chain.run(async ({ provider, model }) => {
 *   // "provider:model" tells the manager which registered provider serves, so its window applies
 *   const { messages } = await manager.prepare(history, { model: `${provider.id}:${model}` });
 *   return call(provider, model, messages);
 * });
 * ```
 */
export function withFallback<Target extends FallbackTarget>(targets: readonly Target[], options: FallbackOptions<Target['provider']> = {}): FallbackChain<Target['provider']> {
  type Provider = Target['provider'];
  if (!Array.isArray(targets) || targets.length === 0) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'provider-utils', message: 'withFallback needs at least one { provider, model } target' });
  }
  targets.forEach((target, index) => {
    if (!target || typeof target.provider?.classifyError !== 'function' || typeof target.model !== 'string' || target.model === '') {
      throw new CtxkitError({
        code: 'INVALID_ARGUMENT',
        source: 'provider-utils',
        message: `withFallback target ${index} needs a provider plugin and a non-empty model id`,
      });
    }
  });
  const list = [...targets];
  const maxRetries = options.maxRetries ?? 2;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 20_000;
  const cooldownMs = options.cooldownMs ?? 60_000;
  const now = options.now ?? Date.now;
  const classify = options.classify ?? ((error: unknown, target: FallbackTarget<Provider>) => target.provider.classifyError(error));
  const coolingUntil = new Array<number>(list.length).fill(0);
  let currentIndex = 0;

  const switchTo = (index: number, why: Pick<FallbackSwitch<Provider>, 'classification' | 'error'>) => {
    if (index === currentIndex) return;
    const change: FallbackSwitch<Provider> = { from: list[currentIndex] as FallbackTarget<Provider>, to: list[index] as FallbackTarget<Provider>, ...why };
    currentIndex = index;
    options.onSwitch?.(change);
  };

  return {
    targets: list,
    get current() {
      return list[currentIndex] as FallbackTarget<Provider>;
    },
    contextWindow(windowOptions) {
      const target = list[currentIndex] as FallbackTarget<Provider>;
      return target.provider.contextWindow(target.model, windowOptions);
    },
    reset() {
      coolingUntil.fill(0);
    },
    async run(task, runOptions = {}) {
      const signal = runOptions.signal;
      const attempts: FallbackAttempt<Provider>[] = [];
      const time = now();
      const available = list.map((_, index) => index).filter((index) => (coolingUntil[index] ?? 0) <= time);
      // Every target cooling down: trying them anyway beats failing without a call.
      const order = available.length > 0 ? available : list.map((_, index) => index);
      let attempt = 0;
      let lastError: unknown;
      let lastClassification: ErrorClassification | undefined;
      for (const [position, index] of order.entries()) {
        const target = list[index] as FallbackTarget<Provider>;
        for (let retries = 0; ; retries++) {
          if (signal?.aborted) throw signal.reason ?? new CtxkitError({ code: 'ABORTED', source: 'provider-utils', message: 'fallback run aborted' });
          try {
            const result = await task({
              provider: target.provider,
              model: target.model,
              attempt: attempt++,
              signal,
              contextWindow: () => target.provider.contextWindow(target.model, signal ? { signal } : {}),
            });
            if (index !== currentIndex) switchTo(index, lastClassification ? { classification: lastClassification, error: lastError } : {});
            coolingUntil[index] = 0;
            return { result, target, attempts };
          } catch (error) {
            if (signal?.aborted) throw error;
            const classification = classify(error, target);
            if (!classification.fallback) throw error;
            lastError = error;
            lastClassification = classification;
            const retryable = (classification as { retryable?: boolean }).retryable ?? true;
            const delay = classification.retryAfterMs;
            if (retryable && delay !== undefined && delay <= maxRetryDelayMs && retries < maxRetries) {
              const entry: FallbackAttempt<Provider> = { target, error, classification, action: 'retry', waitedMs: delay };
              attempts.push(entry);
              options.onRetry?.(entry);
              await sleep(delay, signal);
              continue;
            }
            const isLast = position === order.length - 1;
            attempts.push({ target, error, classification, action: isLast ? 'fail' : 'fallback' });
            coolingUntil[index] = now() + Math.max(cooldownMs, delay ?? 0);
            break;
          }
        }
      }
      const summary = attempts.filter((entry) => entry.action !== 'retry').map((entry) => `${describeTarget(entry.target)} (${entry.classification.kind})`);
      throw new CtxkitError({
        code: 'PROVIDER_ERROR',
        source: 'provider-utils',
        message: `every fallback target failed: ${summary.join(', ')}`,
        cause: lastError,
        details: attempts,
      });
    },
  };
}
