import { CtxkitError, type EstimatorPlugin, type Message, type Role, type TokenizerPlugin } from '@ctxkit/core';
import { Calibration, type CalibrationOptions, type CalibrationSnapshot, type CounterKind } from './calibration.ts';
import { heuristicEstimator } from './heuristic-estimator.ts';
import { type ImageTokens, type MessageFraming, messageCost } from './message-cost.ts';
import { checkPlausibleUsageRatio, type DistrustedUsage, defaultPlausibleUsageRatio, isPlausibleUsage } from './usage-check.ts';

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

interface MessageEntry {
  readonly role: unknown;
  readonly content: unknown;
  readonly toolCalls: unknown;
  readonly toolName: unknown;
  estimate?: number;
  exact?: number;
}

interface ToolsEntry {
  readonly json: string;
  estimate?: number;
  exact?: number;
}

interface Anchor {
  readonly reported: number;
  readonly messageCount: number;
  readonly model: string | undefined;
  readonly system: Message | undefined;
  readonly tools: readonly unknown[] | undefined;
}

function argumentError(message: string): CtxkitError {
  return new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message });
}

function wholeNumber(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw argumentError(`${name} must be a whole number ≥ 0, got ${JSON.stringify(value)}`);
  return value;
}

function transcript(messages: unknown, where: string): readonly Message[] {
  if (!Array.isArray(messages)) throw argumentError(`${where}: messages must be an array, got ${messages === null ? 'null' : typeof messages}`);
  return messages as readonly Message[];
}

/**
 * A meter: anchors on the provider's reported input tokens, counts only messages added since, confirms
 * an over-threshold estimate exactly, calibrates per model, and reports the fixed floor apart from the
 * growing part.
 * @throws CtxkitError INVALID_ARGUMENT for a bad option
 * @example
 * ```ts
 * const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
 * const step = await meter.exceeds(messages, 100_000, { tools, model: 'gpt-4o' });
 * if (step.exceeds) compact();              // never on an unconfirmed estimate
 * const response = await callModel(messages);
 * meter.record({ inputTokens: response.usage.prompt_tokens, messageCount: messages.length, model: 'gpt-4o' });
 * messages = [...messages, reply, ...toolResults];
 * meter.measure(messages, { tools, model: 'gpt-4o' }); // the report + the three new messages only
 * ```
 */
export function createMeter(options: MeterOptions = {}): Meter {
  const tokenizer = options.tokenizer;
  const plausibleUsageRatio = options.plausibleUsageRatio ?? defaultPlausibleUsageRatio;
  checkPlausibleUsageRatio(plausibleUsageRatio);
  const estimator = options.estimator ?? heuristicEstimator();
  if (tokenizer !== undefined && (tokenizer.kind !== 'tokenizer' || typeof tokenizer.count !== 'function')) {
    throw argumentError(`createMeter: tokenizer must be a tokenizer plugin (kind "tokenizer" with count()), got kind ${JSON.stringify((tokenizer as { kind?: unknown }).kind)}`);
  }
  if (estimator.kind !== 'estimator' || typeof estimator.estimate !== 'function') {
    throw argumentError(`createMeter: estimator must be an estimator plugin (kind "estimator" with estimate()), got kind ${JSON.stringify((estimator as { kind?: unknown }).kind)}`);
  }
  const framing: MessageFraming = {
    perMessageOverhead: wholeNumber('createMeter: perMessageOverhead', options.perMessageOverhead ?? 3),
    toolCallOverhead: wholeNumber('createMeter: toolCallOverhead', options.toolCallOverhead ?? 3),
    imageTokens: options.imageTokens ?? 765,
  };
  if (typeof framing.imageTokens === 'number') wholeNumber('createMeter: imageTokens', framing.imageTokens);
  else if (typeof framing.imageTokens !== 'function') throw argumentError('createMeter: imageTokens must be a number or a function of (part, message)');
  const requestOverhead = wholeNumber('createMeter: requestOverhead', options.requestOverhead ?? 3);
  const calibrating = options.calibration !== false;
  const calibration = new Calibration(options.calibration === false ? {} : options.calibration, options.calibrations);

  // Counts without calibration, cached per message object; the fields are re-checked so that a field
  // reassigned on the same object is noticed.
  const messageCache = new WeakMap<object, MessageEntry>();
  const toolsCache = new WeakMap<object, ToolsEntry>();
  let toolsByJson = new Map<string, ToolsEntry>();

  let readyPromise: Promise<void> | undefined;
  let tokenizerLoaded = tokenizer !== undefined && (tokenizer.load === undefined || (tokenizer as { loaded?: boolean }).loaded === true);
  const isExactAvailable = (): boolean => {
    if (!tokenizerLoaded && tokenizer && (tokenizer as { loaded?: boolean }).loaded === true) tokenizerLoaded = true;
    return tokenizerLoaded;
  };

  const countWith = (kind: CounterKind) =>
    kind === 'exact' ? (text: string) => (tokenizer as TokenizerPlugin).count(text) : (text: string) => estimator.estimate(text);

  const kindFor = (exact: boolean | undefined, where: string): CounterKind => {
    if (exact === false || tokenizer === undefined) {
      if (exact === true) throw new CtxkitError({ code: 'TOKENIZER_FAILED', source: 'tokens', message: `${where}: exact: true needs a tokenizer; createMeter({ tokenizer }) has none` });
      return 'estimate';
    }
    if (isExactAvailable()) return 'exact';
    if (exact === true) {
      throw new CtxkitError({ code: 'TOKENIZER_FAILED', source: 'tokens', message: `${where}: exact: true before the tokenizer ${tokenizer.id} was loaded; await meter.ready() first` });
    }
    return 'estimate';
  };

  const messageLocal = (message: Message, index: number, kind: CounterKind): number => {
    const key = message as unknown as object;
    let entry = typeof key === 'object' && key !== null ? messageCache.get(key) : undefined;
    const record = message as unknown as Record<string, unknown>;
    if (!entry || entry.role !== record.role || entry.content !== record.content || entry.toolCalls !== record.toolCalls || entry.toolName !== record.toolName) {
      entry = { role: record?.role, content: record?.content, toolCalls: record?.toolCalls, toolName: record?.toolName };
      const cost = messageCost(message, index, countWith(kind), framing);
      entry[kind] = cost;
      if (typeof key === 'object' && key !== null) messageCache.set(key, entry);
      return cost;
    }
    let cost = entry[kind];
    if (cost === undefined) {
      cost = messageCost(message, index, countWith(kind), framing);
      entry[kind] = cost;
    }
    return cost;
  };

  const toolsLocal = (tools: readonly unknown[] | undefined, kind: CounterKind): number => {
    if (tools === undefined || tools === null) return 0;
    const isObject = typeof tools === 'object';
    let entry = isObject ? toolsCache.get(tools) : undefined;
    if (!entry) {
      let json: string | undefined;
      try {
        json = JSON.stringify(tools);
      } catch (cause) {
        throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message: `tools could not be turned into JSON: ${(cause as Error).message}`, cause });
      }
      if (json === undefined) throw argumentError('tools must be JSON (an array of tool definitions), got a value JSON.stringify drops');
      entry = toolsByJson.get(json);
      if (!entry) {
        entry = { json };
        // A handful of distinct tool lists is normal (per-tab overrides); more means a new array each step.
        if (toolsByJson.size >= 16) toolsByJson = new Map();
        toolsByJson.set(json, entry);
      }
      if (isObject) toolsCache.set(tools, entry);
    }
    let cost = entry[kind];
    if (cost === undefined) {
      cost = entry.json === '[]' ? 0 : countWith(kind)(entry.json);
      entry[kind] = cost;
    }
    return cost;
  };

  const systemOf = (messages: readonly Message[]): Message | undefined => (messages[0]?.role === 'system' ? messages[0] : undefined);

  const floorLocal = (system: Message | undefined, tools: readonly unknown[] | undefined, kind: CounterKind): number =>
    requestOverhead + (system ? messageLocal(system, 0, kind) : 0) + toolsLocal(tools, kind);

  // The transcript of the last measure/exceeds/record, with running sums of its growing part per
  // counter, so a step counts only the messages that were not there before.
  // A copy of the references, not the host's array: a host that splices its own array in place
  // must still look changed.
  const ledger: Message[] = [];
  const cumulative: Record<CounterKind, number[]> = { estimate: [0], exact: [0] };
  let anchor: Anchor | undefined;
  let lastTools: readonly unknown[] | undefined;

  const syncLedger = (messages: readonly Message[]): void => {
    const limit = Math.min(ledger.length, messages.length);
    let common = 0;
    // Identity, not content: a changed message is a new object, so this is the whole check.
    while (common < limit && ledger[common] === messages[common]) common++;
    if (common < ledger.length) {
      for (const kind of ['estimate', 'exact'] as const) if (cumulative[kind].length > common + 1) cumulative[kind].length = common + 1;
      if (anchor && common < anchor.messageCount) anchor = undefined;
      ledger.length = common;
    }
    for (let index = common; index < messages.length; index++) ledger.push(messages[index]!);
  };

  const growingAt = (index: number, kind: CounterKind): number => {
    const message = ledger[index]!;
    return index === 0 && message?.role === 'system' ? 0 : messageLocal(message, index, kind);
  };

  const growingUpTo = (kind: CounterKind, end: number): number => {
    const sums = cumulative[kind];
    for (let index = sums.length - 1; index < end; index++) sums.push(sums[index]! + growingAt(index, kind));
    return sums[end]!;
  };

  // The growing part of messages [start, end). When the running sums do not reach `start` (the
  // tokenizer was loaded after the anchor), only the range is counted: a confirmation costs the tail.
  const growingBetween = (kind: CounterKind, start: number, end: number): number => {
    const sums = cumulative[kind];
    if (sums.length > start) return growingUpTo(kind, end) - sums[start]!;
    let total = 0;
    for (let index = start; index < end; index++) total += growingAt(index, kind);
    return total;
  };

  const modelKey = (model: string | undefined): string => model ?? '';

  const build = (
    total: number,
    floor: number,
    rest: Omit<Measurement, 'total' | 'floor' | 'growing' | 'model'>,
    model: string | undefined,
  ): Measurement => {
    const cappedFloor = Math.min(floor, total);
    return { total, floor: cappedFloor, growing: total - cappedFloor, ...rest, ...(model === undefined ? {} : { model }) };
  };

  const measure = (messages: readonly Message[], measureOptions: MeasureOptions = {}): Measurement => {
    transcript(messages, 'measure');
    const kind = kindFor(measureOptions.exact, 'measure');
    const { tools, model } = measureOptions;
    syncLedger(messages);
    lastTools = tools;
    const ratio = calibration.ratio(modelKey(model), kind);
    const floor = floorLocal(systemOf(messages), tools, kind);
    const usable = anchor && anchor.messageCount <= messages.length && (model === undefined || anchor.model === undefined || anchor.model === model);
    if (anchor && usable) {
      const tail = growingBetween(kind, anchor.messageCount, messages.length);
      const floorChange = floor - floorLocal(anchor.system, anchor.tools, kind);
      const local = tail + floorChange;
      const unanchoredMessages = messages.length - anchor.messageCount;
      return build(
        Math.max(0, anchor.reported + Math.ceil(ratio * local)),
        Math.ceil(ratio * floor),
        {
          source: 'reported',
          confirmed: kind === 'exact' || (unanchoredMessages === 0 && floorChange === 0),
          reportedTokens: anchor.reported,
          unanchoredMessages,
          calibration: ratio,
        },
        model,
      );
    }
    const local = floor + growingUpTo(kind, messages.length);
    return build(
      Math.ceil(ratio * local),
      Math.ceil(ratio * floor),
      { source: kind, confirmed: kind === 'exact', unanchoredMessages: messages.length, calibration: ratio },
      model,
    );
  };

  const ready = (): Promise<void> => {
    if (!tokenizer?.load) return Promise.resolve();
    readyPromise ??= tokenizer.load().then(
      () => {
        tokenizerLoaded = true;
      },
      (cause: unknown) => {
        readyPromise = undefined;
        if (CtxkitError.isInstance(cause)) throw cause;
        throw new CtxkitError({
          code: 'TOKENIZER_FAILED',
          source: 'tokens',
          message: `tokenizer ${tokenizer.id} failed to load: ${(cause as Error)?.message ?? String(cause)}`,
          cause,
        });
      },
    );
    return readyPromise;
  };

  const localTotal = (messages: readonly Message[], kind: CounterKind, tools: readonly unknown[] | undefined): number => {
    let total = floorLocal(systemOf(messages), tools, kind);
    messages.forEach((message, index) => {
      if (index > 0 || message?.role !== 'system') total += messageLocal(message, index, kind);
    });
    return total;
  };

  return {
    measure,

    async exceeds(messages, threshold, measureOptions = {}) {
      if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0) {
        throw argumentError(`exceeds: threshold must be a finite number ≥ 0, got ${JSON.stringify(threshold)}`);
      }
      let measurement = measure(messages, measureOptions);
      if (measurement.total > threshold && !measurement.confirmed && tokenizer !== undefined) {
        await ready();
        measurement = measure(messages, { ...measureOptions, exact: true });
      }
      return { ...measurement, exceeds: measurement.total > threshold, threshold };
    },

    record(report) {
      if (typeof report !== 'object' || report === null) throw argumentError('record: expects { inputTokens, messageCount, model? }');
      const inputTokens = wholeNumber('record: inputTokens', report.inputTokens);
      const messageCount = wholeNumber('record: messageCount', report.messageCount);
      if (report.messages !== undefined) {
        syncLedger(transcript(report.messages, 'record'));
        if (messageCount > ledger.length) throw argumentError(`record: messageCount ${messageCount} is past the ${ledger.length} messages given`);
      } else if (messageCount !== ledger.length) {
        // Something other than the last measured transcript was sent (a compacted copy, say): a figure
        // matched to the wrong messages would anchor and calibrate on the wrong prefix.
        throw argumentError(
          `record: messageCount ${messageCount} does not match the ${ledger.length} messages of the last measured transcript; pass the messages that were sent as record({ messages })`,
        );
      }
      const tools = report.tools ?? lastTools;
      const model = report.model;
      const system = ledger[0]?.role === 'system' && messageCount > 0 ? ledger[0] : undefined;
      let reported = inputTokens;
      const inUse = kindFor(undefined, 'record');
      // Checked against the running sums that exist already (the estimate's, or the exact ones once
      // built), so the check never costs a recount.
      const checkKind: CounterKind = inUse === 'exact' && cumulative.exact.length > 1 ? 'exact' : 'estimate';
      const checked = floorLocal(system, tools, checkKind) + growingUpTo(checkKind, messageCount);
      const plausible = isPlausibleUsage(inputTokens, checked, plausibleUsageRatio);
      if (report.inputIsLowerBound || !plausible) {
        // The real figure is at least the report; the calibrated local count is the better guess above it.
        const local = floorLocal(system, tools, inUse) + growingUpTo(inUse, messageCount);
        reported = Math.max(reported, Math.ceil(calibration.ratio(modelKey(model), inUse) * local));
        if (!plausible && !report.inputIsLowerBound) {
          const reason = `the provider reported ${inputTokens} input tokens, under ${plausibleUsageRatio} of the ${checked} counted locally; anchored on ${reported} instead`;
          options.onDistrustedUsage?.({ reported: inputTokens, local: checked, used: reported, model, reason });
        }
      } else if (calibrating) {
        // The estimator learns from every report. The exact counter learns once its running sums exist
        // (from the first measurement it made without an anchor), so a report never costs a full recount.
        calibration.observe(modelKey(model), 'estimate', inputTokens, floorLocal(system, tools, 'estimate') + growingUpTo('estimate', messageCount));
        if (inUse === 'exact' && cumulative.exact.length > 1) {
          calibration.observe(modelKey(model), 'exact', inputTokens, floorLocal(system, tools, 'exact') + growingUpTo('exact', messageCount));
        }
      }
      anchor = { reported, messageCount, model, system, tools };
    },

    countMessages(messages, measureOptions = {}) {
      transcript(messages, 'countMessages');
      const kind = kindFor(measureOptions.exact, 'countMessages');
      return Math.ceil(calibration.ratio(modelKey(measureOptions.model), kind) * localTotal(messages, kind, measureOptions.tools));
    },

    countText(text, measureOptions = {}) {
      if (typeof text !== 'string') throw argumentError(`countText: text must be a string, got ${text === null ? 'null' : typeof text}`);
      const kind = kindFor(measureOptions.exact, 'countText');
      return Math.ceil(calibration.ratio(modelKey(measureOptions.model), kind) * countWith(kind)(text));
    },

    breakdown(messages, measureOptions = {}) {
      transcript(messages, 'breakdown');
      const kind = kindFor(measureOptions.exact, 'breakdown');
      const ratio = calibration.ratio(modelKey(measureOptions.model), kind);
      const scaled = (tokens: number) => Math.ceil(ratio * tokens);
      const roles: Breakdown['roles'] = {
        system: { messages: 0, tokens: 0 },
        user: { messages: 0, tokens: 0 },
        assistant: { messages: 0, tokens: 0 },
        tool: { messages: 0, tokens: 0 },
      };
      messages.forEach((message, index) => {
        const tokens = messageLocal(message, index, kind);
        const role = roles[message.role];
        role.messages += 1;
        role.tokens += tokens;
      });
      const system = systemOf(messages);
      const floor = {
        system: scaled(system ? messageLocal(system, 0, kind) : 0),
        tools: scaled(toolsLocal(measureOptions.tools, kind)),
        request: scaled(requestOverhead),
      };
      for (const role of Object.values(roles)) role.tokens = scaled(role.tokens);
      return { total: scaled(localTotal(messages, kind, measureOptions.tools)), floor, roles, source: kind };
    },

    ready,

    reset() {
      anchor = undefined;
    },

    calibration(model, kind) {
      return calibration.ratio(modelKey(model), kind ?? (tokenizer !== undefined && isExactAvailable() ? 'exact' : 'estimate'));
    },

    calibrations: () => calibration.snapshot(),
  };
}
