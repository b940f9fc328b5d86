import { CtxkitError, type ErrorClassification, type ModelLimits, memoryStore, type StorePlugin } from '@ctxkit/core';
import { type CatalogLimits, type CatalogLookup, conservativeDefaultWindow } from './model-catalog.ts';
import { ProviderCallError } from './provider-call-error.ts';

/** What a discovery endpoint said about a model; undefined when it does not know the model. */
export type DiscoveredLimits = CatalogLimits;

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);

/**
 * Limits from the fields an API reports, which may be missing, null or zero (Anthropic's Models API
 * reports null for some models): undefined unless the window is a positive number, and the output
 * limit only where it is one.
 * @example discoveredLimits(info.max_input_tokens, info.max_tokens) // { contextWindow: 200_000, maxOutputTokens: 64_000 }
 */
export function discoveredLimits(contextWindow: unknown, maxOutputTokens?: unknown): DiscoveredLimits | undefined {
  const window = positive(contextWindow);
  if (window === undefined) return undefined;
  const output = positive(maxOutputTokens);
  return output === undefined ? { contextWindow: window } : { contextWindow: window, maxOutputTokens: output };
}

/** What a discovery is given besides the model. */
export interface DiscoverOptions {
  /** Fires when the discovery passes its deadline (`discoveryDeadlineMs`). */
  signal: AbortSignal;
  /**
   * What an earlier discovery stored for this model, if anything: a weaker answer (a setting or an
   * assumption, while the model is not running) should not replace what was seen while it ran.
   */
  stored?: StoredWindow['discovered'];
  /**
   * Tells the cache which URL the discovery is waiting on now, so a discovery past its deadline names
   * it (a server that accepts and never answers). Optional to call; `createHostedProvider`'s discovery calls do.
   */
  requesting?(url: string): void;
}

/** Asks the provider for a model's limits. Rejects when the endpoint is unreachable. */
export type DiscoverLimits = (model: string, options: DiscoverOptions) => Promise<DiscoveredLimits | undefined>;

/** Options for {@link createWindowCache}. */
export interface WindowCacheOptions {
  /** The namespace of the stored windows, usually the provider id (plus a host, for local servers). */
  provider: string;
  /** Where discovered and learned windows persist. @default memoryStore() */
  store?: StorePlugin;
  /** Asks the provider's API for a model's limits (models list, models.get, `/props`). */
  discover?: DiscoverLimits;
  /** A maintained catalog for models the API says nothing about. */
  catalog?: CatalogLookup;
  /** Windows the user set by hand; they win over everything else. A number is the context window. */
  configured?: Readonly<Record<string, number | CatalogLimits>>;
  /** The window of a model nobody knows. @default 32_768 (conservativeDefaultWindow) */
  defaultWindow?: number;
  /**
   * How long `resolve` waits for a first discovery of a model before answering from the catalog or
   * the default; the discovery goes on and its answer is used from the next call. A lookup made while
   * a discovery of the same model is running joins it, within the same bound. 0 never waits. @default 3_000
   */
  discoveryTimeoutMs?: number;
  /** A discovery still running after this long is abandoned, so none hangs forever. @default 30_000 */
  discoveryDeadlineMs?: number;
  /** How often a discovered window is asked for again, in the background. 0: on every call. @default 300_000 */
  refreshIntervalMs?: number;
  /** Told about discovery and store failures, which never fail `resolve`. */
  onError?: (error: unknown, model: string) => void;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

/** The persisted record of one (provider, model). */
export interface StoredWindow {
  discovered?: { contextWindow: number; maxOutputTokens?: number; at: number };
  /** A limit stated by an overflow error, with the advertised window it corrected. */
  learned?: { contextWindow: number; at: number; advertised?: number };
}

/** Windows per (provider, model): configured, learned, discovered, catalog, default; persisted through a store. */
export interface WindowCache {
  /**
   * The limits of the model serving a request, and where they come from. Never rejects for a failed
   * discovery or store: it answers from what is known, `source` saying which.
   */
  resolve(model: string, options?: { signal?: AbortSignal }): Promise<ModelLimits>;
  /**
   * Learns from an overflow error that states the real limit (a router serving a shorter window than
   * it advertises): the stored window of that model follows. Returns the new limits, or undefined
   * when the error taught nothing.
   */
  learn(model: string, classification: Pick<ErrorClassification, 'kind' | 'limitTokens'>): Promise<ModelLimits | undefined>;
  /** Records limits discovered elsewhere (a response header, a load event). */
  remember(model: string, limits: DiscoveredLimits): Promise<void>;
  /** Asks discovery now and waits for it; undefined when discovery is absent or failed. */
  refresh(model: string, options?: { signal?: AbortSignal }): Promise<ModelLimits | undefined>;
  /** Drops what was discovered and learned for a model. */
  forget(model: string): Promise<void>;
  /**
   * The store key of a model's record: `windows:<provider>:<model>`, the model id percent-encoded to
   * `[A-Za-z0-9_%-]`, since stores refuse or cut some ids (`../models/x.gguf`, a `?`).
   */
  keyOf(model: string): string;
}

/**
 * A model id as one store key segment: percent-encoded down to [A-Za-z0-9_%-]. Stores read `:` and `/`
 * as folders, unstorage's file driver refuses a `..` segment (llama.cpp's default id is the model path,
 * `../models/x.gguf`) and cuts a key at `?`, which would lose a window or let two ids share one.
 */
function encodeModelId(model: string): string {
  return encodeURIComponent(model).replace(/[.!'()*~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

function checkPositive(name: string, value: number | undefined, allowZero = false): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'provider-utils',
      message: `window cache: ${name} must be a finite number above zero, got ${typeof value === 'string' ? `the string ${JSON.stringify(value)}` : String(value)}`,
    });
  }
}

/**
 * The error of a discovery past its deadline: a TIMEOUT naming provider and model, and the URL it was
 * waiting on when the discovery said (a ProviderCallError with that `url`, as the request's own timeout gives).
 */
function deadlineError(provider: string, model: string, deadlineMs: number, url: string | undefined): CtxkitError {
  const message = `discovery of ${model} gave no answer within ${deadlineMs} ms`;
  if (url === undefined) return new CtxkitError({ code: 'TIMEOUT', source: provider, message });
  return new ProviderCallError({ provider, failure: 'timeout', url, message: `${message}: ${url} did not answer` });
}

function wait<T>(promise: Promise<T>, milliseconds: number, signal?: AbortSignal): Promise<{ done: true; value: T } | { done: false }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish({ done: false }), milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CtxkitError({ code: 'ABORTED', source: 'provider-utils', message: 'window lookup aborted by the caller', cause: signal?.reason }));
    };
    function finish(result: { done: true; value: T } | { done: false }) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    }
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => finish({ done: true, value }),
      () => finish({ done: false }),
    );
  });
}

function reportFailure(onError: WindowCacheOptions['onError'], error: unknown, model: string): void {
  try {
    onError?.(error, model);
  } catch {
    // A failing listener must not break window lookups.
  }
}

function checkModelId(provider: string, model: unknown): void {
  if (typeof model !== 'string' || model === '') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: provider, message: `contextWindow(model) needs a model id, got ${JSON.stringify(model)}` });
  }
}

function configuredLimits(options: WindowCacheOptions, model: string): CatalogLimits | undefined {
  const entry = options.configured?.[model];
  if (entry === undefined) return undefined;
  return typeof entry === 'number' ? { contextWindow: entry } : entry;
}

const finiteTime = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * A stored record as far as it can be trusted: a store holds whatever an older version, another tool or
 * a half-written file left there. A part whose window is not a positive number is dropped; a time that
 * is missing or in the future becomes 0, so the window is asked for again instead of never.
 * Returns the record and what was wrong with it, if anything.
 */
function readRecord(stored: unknown, now: number): { record: StoredWindow; problem?: string } {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return { record: {}, problem: `a ${Array.isArray(stored) ? 'list' : typeof stored}, not a record` };
  const { discovered, learned } = stored as { discovered?: Record<string, unknown>; learned?: Record<string, unknown> };
  const record: StoredWindow = {};
  const problems: string[] = [];
  const when = (at: unknown) => {
    const time = finiteTime(at);
    return time === undefined || time > now ? 0 : time;
  };
  if (discovered !== undefined) {
    const limits = discoveredLimits(discovered?.contextWindow, discovered?.maxOutputTokens);
    if (limits) record.discovered = { ...limits, at: when(discovered?.at) };
    else problems.push(`discovered window ${JSON.stringify(discovered?.contextWindow)}`);
  }
  if (learned !== undefined) {
    const window = positive(learned?.contextWindow);
    const advertised = positive(learned?.advertised);
    if (window) record.learned = { contextWindow: window, at: when(learned?.at), ...(advertised === undefined ? {} : { advertised }) };
    else problems.push(`learned window ${JSON.stringify(learned?.contextWindow)}`);
  }
  return problems.length > 0 ? { record, problem: `${problems.join(' and ')}, not a positive number` } : { record };
}

/** What {@link loadRecord} reads with and remembers in. */
interface RecordContext {
  store: StorePlugin;
  provider: string;
  keyOf(model: string): string;
  now(): number;
  report(error: unknown, model: string): void;
  /** The last record seen per model: used when the store fails, and to skip writes that change nothing. */
  known: Map<string, StoredWindow>;
  /** Problems already told to onError: a lookup reads a record more than once. */
  reported: Set<string>;
}

/** A model's record from the store, distrusting what it cannot read; on a store failure, the last record seen. */
async function loadRecord(context: RecordContext, model: string): Promise<StoredWindow> {
  const { known } = context;
  let stored: unknown;
  try {
    stored = await context.store.getItem<unknown>(context.keyOf(model));
  } catch (error) {
    context.report(error, model);
    return known.get(model) ?? {};
  }
  if (stored === null || stored === undefined) return known.get(model) ?? {};
  const { record, problem } = readRecord(stored, context.now());
  const unreadable = problem !== undefined && !record.discovered && !record.learned;
  if (problem) {
    const message = `stored window record ${context.keyOf(model)} ignored${unreadable ? '' : ' in part'}: ${problem}`;
    if (!context.reported.has(message)) context.report(new CtxkitError({ code: 'STORE_ERROR', source: context.provider, message }), model);
    context.reported.add(message);
  }
  if (unreadable) return known.get(model) ?? {};
  known.set(model, record);
  return record;
}

/** The limits a record stands for: configured > learned > discovered > catalog > default. */
function composeLimits(options: WindowCacheOptions, defaultWindow: number, model: string, record: StoredWindow): ModelLimits {
  const configured = configuredLimits(options, model);
  if (configured) return { ...configured, source: 'configured' };
  const catalog = options.catalog?.(model);
  const base: ModelLimits = record.discovered
    ? {
        contextWindow: record.discovered.contextWindow,
        ...(record.discovered.maxOutputTokens === undefined ? {} : { maxOutputTokens: record.discovered.maxOutputTokens }),
        source: 'discovered',
      }
    : catalog
      ? { ...catalog, source: 'catalog' }
      : { contextWindow: defaultWindow, source: 'default' };
  if (!record.learned) return base;
  const maxOutputTokens = base.maxOutputTokens === undefined ? undefined : Math.min(base.maxOutputTokens, record.learned.contextWindow);
  return { contextWindow: record.learned.contextWindow, ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }), source: 'learned' };
}

/** A copy of the record with what discovery found at `at`. */
function withDiscovered(stored: StoredWindow, limits: DiscoveredLimits, at: number): StoredWindow {
  const record = { ...stored };
  const discovered = { contextWindow: limits.contextWindow, ...(limits.maxOutputTokens ? { maxOutputTokens: limits.maxOutputTokens } : {}), at };
  // A learned limit corrected what was advertised then; a change in what discovery reports means the
  // server changed (a reload with a larger context), and the old lesson no longer holds.
  if (record.learned && record.discovered && record.discovered.contextWindow !== discovered.contextWindow) delete record.learned;
  record.discovered = discovered;
  return record;
}

/**
 * A window cache for one provider: the piece that makes windows follow the model actually serving each
 * request, keeps what discovery found across restarts, and learns real limits from overflow errors.
 * Order: configured > learned > discovered > catalog > default.
 * @throws CtxkitError INVALID_ARGUMENT for a bad timeout or default
 * @example
 * ```ts
 * const windows = createWindowCache({ provider: 'ollama', store: fileStore('.ctxkit'), discover: (model, { signal }) => show(model, signal) });
 * await windows.resolve('qwen3:8b'); // { contextWindow: 40_960, source: 'discovered' }, and after a restart with the server down
 * ```
 */
export function createWindowCache(options: WindowCacheOptions): WindowCache {
  const store = options.store ?? memoryStore();
  const defaultWindow = options.defaultWindow ?? conservativeDefaultWindow;
  const discoveryTimeoutMs = options.discoveryTimeoutMs ?? 3_000;
  const discoveryDeadlineMs = options.discoveryDeadlineMs ?? 30_000;
  const refreshIntervalMs = options.refreshIntervalMs ?? 300_000;
  checkPositive('defaultWindow', defaultWindow);
  checkPositive('discoveryTimeoutMs', discoveryTimeoutMs, true);
  checkPositive('discoveryDeadlineMs', discoveryDeadlineMs);
  checkPositive('refreshIntervalMs', refreshIntervalMs, true);
  const now = options.now ?? Date.now;
  const report = (error: unknown, model: string) => reportFailure(options.onError, error, model);
  // The last record seen per model: used when the store fails, and to skip writes that change nothing.
  const known = new Map<string, StoredWindow>();
  const inFlight = new Map<string, Promise<StoredWindow | undefined>>();

  const keyOf = (model: string) => `windows:${options.provider}:${encodeModelId(model)}`;

  const records: RecordContext = { store, provider: options.provider, keyOf, now, report, known, reported: new Set() };
  const load = (model: string) => loadRecord(records, model);

  async function save(model: string, record: StoredWindow): Promise<void> {
    known.set(model, record);
    try {
      await store.setItem(keyOf(model), record);
    } catch (error) {
      report(error, model);
    }
  }

  const compose = (model: string, record: StoredWindow) => composeLimits(options, defaultWindow, model, record);

  function discover(model: string): Promise<StoredWindow | undefined> {
    const running = inFlight.get(model);
    if (running) return running;
    const discoverLimits = options.discover;
    if (!discoverLimits) return Promise.resolve(undefined);
    const controller = new AbortController();
    let asking: string | undefined;
    const deadline = setTimeout(() => controller.abort(deadlineError(options.provider, model, discoveryDeadlineMs, asking)), discoveryDeadlineMs);
    const requesting = (url: string) => {
      asking = url;
    };
    const attempt = (async () => {
      try {
        const stored = (await load(model)).discovered;
        const limits = await Promise.race([
          discoverLimits(model, { signal: controller.signal, requesting, ...(stored ? { stored } : {}) }),
          new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })),
        ]);
        if (!limits || !(limits.contextWindow > 0)) return undefined;
        const record = withDiscovered(await load(model), limits, now());
        await save(model, record);
        return record;
      } catch (error) {
        report(error, model);
        return undefined;
      } finally {
        clearTimeout(deadline);
        inFlight.delete(model);
      }
    })();
    inFlight.set(model, attempt);
    return attempt;
  }

  return {
    keyOf,
    async resolve(model, resolveOptions = {}) {
      checkModelId(options.provider, model);
      if (configuredLimits(options, model)) return compose(model, {});
      let record = await load(model);
      if (options.discover) {
        if (!record.discovered) {
          // Unknown: ask, or join the question already asked (a summarizer looks its window up when it is
          // made, often in the same step), and wait only so long for the answer.
          const answer = discover(model);
          if (discoveryTimeoutMs > 0) {
            const result = await wait(answer, discoveryTimeoutMs, resolveOptions.signal);
            if (result.done && result.value) record = result.value;
          }
        } else if (now() - record.discovered.at >= refreshIntervalMs) {
          void discover(model);
        }
      }
      return compose(model, record);
    },
    async learn(model, classification) {
      const limit = classification.limitTokens;
      if (classification.kind !== 'context_overflow' || limit === undefined || !(limit > 0)) return undefined;
      const record = { ...(await load(model)) };
      const advertised = record.discovered?.contextWindow ?? options.catalog?.(model)?.contextWindow;
      record.learned = { contextWindow: limit, at: now(), ...(advertised === undefined ? {} : { advertised }) };
      await save(model, record);
      return compose(model, record);
    },
    async remember(model, limits) {
      checkPositive('contextWindow', limits.contextWindow);
      const record = { ...(await load(model)) };
      record.discovered = { contextWindow: limits.contextWindow, ...(limits.maxOutputTokens ? { maxOutputTokens: limits.maxOutputTokens } : {}), at: now() };
      await save(model, record);
    },
    async refresh(model, refreshOptions = {}) {
      const answer = discover(model);
      const result = await wait(answer, discoveryDeadlineMs, refreshOptions.signal);
      return result.done && result.value ? compose(model, result.value) : undefined;
    },
    async forget(model) {
      known.delete(model);
      try {
        await store.removeItem(keyOf(model));
      } catch (error) {
        report(error, model);
      }
    },
  };
}
