import { CtxkitError, type Message, memoryStore, recentTurnsStart, type SummarizerPlugin, segmentRounds, textOf, validateTranscript } from '@ctxkit/core';
import type { PrepareReport } from '@ctxkit/engine';
import { classifyError } from '@ctxkit/provider-utils';
import { compactionThreshold } from '@ctxkit/threshold';
import { createRestoreHandler } from '@ctxkit/tier-microcompact';
import { factualNoteSummarizer } from '@ctxkit/tier-trim';
import type { TiktokenEncoding } from '@ctxkit/tokens';
import { anthropicContextEditingPolicy } from './policies/anthropic-context-editing.ts';
import { nonePolicy, slidingWindowPolicy, summarizeAt90Policy } from './policies/baselines.ts';
import { codexPolicy } from './policies/codex.ts';
import { createCtxkitReplay } from './policies/ctxkit-policy.ts';
import { geminiCliPolicy } from './policies/gemini-cli.ts';
import { observationMaskingPolicy } from './policies/observation-masking.ts';
import { opencodePolicy } from './policies/opencode.ts';
import type { PolicyContext, ReplayPolicy, ReplayPolicyFactory } from './policies/replay-policy.ts';
import { createRetentionTracker } from './retention.ts';
import { createSimulatedProviderCounter, type SimulatedProviderCounter } from './simulated-provider.ts';

/**
 * The ways of keeping a run in its window that `simulate` compares: two naive baselines, the peers'
 * own policies re-implemented from their sources (docs/policies.md), and ctxkit's default.
 */
export const simulationPolicies = ['none', 'sliding-window', 'summarize-at-90', 'observation-masking', 'codex', 'gemini-cli', 'opencode', 'anthropic-context-editing', 'ctxkit'] as const;
/** One of {@link simulationPolicies}. */
export type SimulationPolicy = (typeof simulationPolicies)[number];

const peerPolicies: Record<Exclude<SimulationPolicy, 'ctxkit'>, ReplayPolicyFactory> = {
  none: nonePolicy,
  'sliding-window': slidingWindowPolicy,
  'summarize-at-90': summarizeAt90Policy,
  'observation-masking': observationMaskingPolicy,
  codex: codexPolicy,
  'gemini-cli': geminiCliPolicy,
  opencode: opencodePolicy,
  'anthropic-context-editing': anthropicContextEditingPolicy,
};

/** Prices in US dollars per million tokens. */
export interface TokenPrices {
  input: number;
  /** Input served from the prompt cache. @default input */
  cachedInput?: number;
  /** Input written to the prompt cache, where the provider bills it (Anthropic: 1.25× input). @default input */
  cacheWrite?: number;
  output: number;
}

/** Options for {@link simulateRun}. */
export interface SimulateOptions {
  /** The context window of the simulated model. */
  window: number;
  /** The output budget reserved for every request. @default 4_096 */
  maxOutputTokens?: number;
  /** @default 'ctxkit' */
  policy?: SimulationPolicy;
  /** The summarizer standing in for the active model. @default factualNoteSummarizer() */
  summarizer?: SummarizerPlugin;
  /**
   * Every policy compacts when a request exceeds this many tokens instead of by its own rule, so policies
   * are compared at one budget. @default each policy's own rule
   */
  triggerTokens?: number;
  /**
   * The simulated provider reports this factor of the true input tokens as its usage (0.5: half), as a
   * provider that under-reports would; overflows are still judged on the true count. @default 1
   */
  usageSkew?: number;
  /** Verify the invariants of DESIGN.md §3 at every step and count violations. @default false */
  check?: boolean;
  /** The simulated provider's tokenizer. @default 'o200k_base' */
  encoding?: TiktokenEncoding;
  /** Prices of the model for the cost estimate. */
  prices?: TokenPrices;
  /** Prices of the summarizer's model, when it is not the active model. @default prices */
  summarizerPrices?: TokenPrices;
  /** Messages back from a move within which a name counts as near, not far, for `farRetention`. @default 4 */
  nearMessages?: number;
  /** Called after each step, for progress bars. */
  onStep?: (step: number, steps: number) => void;
  /** Called with every request as it would be sent. */
  onRequest?: (request: readonly Message[]) => void;
}

/** What one replay of a recorded run cost under one policy, and how much of what the agent used next it kept. */
export interface SimulationResult {
  policy: SimulationPolicy;
  window: number;
  /** The trigger every policy used, when the replay compared at one budget. */
  triggerTokens?: number;
  /** Requests sent: one per assistant message of the recording. */
  steps: number;
  compactions: number;
  /** Compactions followed by a request over the threshold again within 2 steps. */
  refills: number;
  /** Requests the provider rejected: they did not fit in the window with their output reserve. */
  overflows: number;
  /** Rejected requests ctxkit recovered (classify the error, `recover`, retry) and sent again within the window. */
  recoveredOverflows: number;
  peakInputTokens: number;
  totalInputTokens: number;
  /** Input tokens that were the same prefix as the previous request's (what a prompt cache can serve). */
  cachedPrefixTokens: number;
  outputTokens: number;
  /** Summaries written and priced: the summarizer's answered calls (a chunked summary counts each) and `offlineNotes`. */
  summarizerCalls: number;
  summarizerInputTokens: number;
  summarizerOutputTokens: number;
  /** Summary calls that threw or timed out (not priced: a failed call is not billed). */
  summarizerFailures: number;
  /** The message of the first summary call that failed, when one did: why the summarizer did not answer. */
  summarizerError?: string;
  /** Of `summarizerCalls`, the notes a tier wrote without a model, priced as the summary they stand for. */
  offlineNotes: number;
  /** Share of the names each next move took from earlier in the run that its request still held (see docs/retention.md). */
  retention: number;
  /** The same for names last seen more than `nearMessages` messages back. */
  farRetention: number;
  /** The counts behind the two shares, summed over steps, so several runs can be pooled. */
  retentionCounts: { namesUsed: number; namesHeld: number; farNamesUsed: number; farNamesHeld: number };
  /** Requests, summaries and output priced; absent without prices. */
  estimatedCostUsd?: number;
  invariantViolations: number;
  /** The first violations found, each with its step. */
  violations: string[];
  /**
   * For ctxkit: steps where it could not bring the request under its threshold or the window, with why (the
   * first 20). Each figure says whose count it is: "the provider counted" (the simulated provider's tokenizer,
   * what the window is checked against) or "the manager estimated" (ctxkit's calibrated estimate).
   */
  warnings: string[];
}

const sameMessage = (a: Message | undefined, b: Message | undefined) => a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));

/** The body an OpenAI-compatible provider answers a request over the window with. */
const overflowError = (window: number, sent: number) => ({
  status: 400,
  body: {
    error: {
      message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${sent} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
});

/** The threshold ctxkit's default compacts at for a window: the trigger `--iso` runs the peers at. */
export function defaultTrigger(window: number, maxOutputTokens: number): number {
  return compactionThreshold(window, maxOutputTokens);
}

/** A replay's result before the first step: every count at zero, retention at 1. */
function emptyResult(policy: SimulationPolicy, window: number, triggerTokens: number | undefined): SimulationResult {
  return {
    policy,
    window,
    ...(triggerTokens === undefined ? {} : { triggerTokens }),
    steps: 0,
    compactions: 0,
    refills: 0,
    overflows: 0,
    recoveredOverflows: 0,
    peakInputTokens: 0,
    totalInputTokens: 0,
    cachedPrefixTokens: 0,
    outputTokens: 0,
    summarizerCalls: 0,
    summarizerInputTokens: 0,
    summarizerOutputTokens: 0,
    summarizerFailures: 0,
    offlineNotes: 0,
    retention: 1,
    farRetention: 1,
    retentionCounts: { namesUsed: 0, namesHeld: 0, farNamesUsed: 0, farNamesHeld: 0 },
    invariantViolations: 0,
    violations: [],
    warnings: [],
  };
}

/** Counts a violation of DESIGN.md §3 at a step, keeping the first 20 for the report. */
function addViolation(result: SimulationResult, step: number, text: string): void {
  result.invariantViolations += 1;
  if (result.violations.length < 20) result.violations.push(`step ${step}: ${text}`);
}

/**
 * A count of tokens as the warnings say it (`6,081 tokens`). The warnings name whose count a figure is:
 * the simulated provider's (its tokenizer, what the window is checked against) or the manager's estimate
 * (calibrated from reported usage), which can differ for the same request.
 */
const tokens = (count: number) => `${count.toLocaleString('en-US')} token${count === 1 ? '' : 's'}`;

/** Keeps the first 20 warnings, each with its step. */
function addWarning(result: SimulationResult, step: number, text: string): void {
  if (result.warnings.length < 20) result.warnings.push(`step ${step}: ${text}`);
}

/** One replay in progress: its settings, the policy under test, the trackers, and what the next step starts from. */
interface ReplayState {
  readonly options: SimulateOptions;
  readonly window: number;
  readonly maxOutputTokens: number;
  readonly usageSkew: number;
  readonly result: SimulationResult;
  readonly provider: SimulatedProviderCounter;
  /** ctxkit's engine when the policy is ctxkit; otherwise `peer` is set. */
  readonly ctxkit: ReturnType<typeof createCtxkitReplay> | undefined;
  readonly peer: ReplayPolicy | undefined;
  readonly retention: ReturnType<typeof createRetentionTracker>;
  readonly restore: (handle: string) => Promise<string>;
  /** Each tool result as recorded, by call id, for the restore check. */
  readonly originals: Map<string, string>;
  history: Message[];
  /** The previous request as sent, for the cached-prefix count. */
  previous: readonly Message[];
  /** The step a peer last compacted at, for its refills. */
  compactedAt: number;
}

/** An option simulateRun cannot run with: the engine's error for a bad argument, so callers check one code. */
const invalidOption = (message: string) => new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'simulate', message });

/** Checks the options and builds the policy, the simulated provider and the trackers a replay runs with. */
async function startReplay(recorded: readonly Message[], options: SimulateOptions): Promise<ReplayState> {
  const { window, maxOutputTokens = 4_096, policy = 'ctxkit', encoding = 'o200k_base', triggerTokens, usageSkew = 1 } = options;
  // From plain JavaScript a misspelt policy reached `peerPolicies[policy](…)`: "is not a function".
  if (!(simulationPolicies as readonly string[]).includes(policy)) throw invalidOption(`policy must be one of ${simulationPolicies.join(', ')}; got ${JSON.stringify(policy)}`);
  if (!(Number.isInteger(window) && window > 0)) throw invalidOption(`window must be a whole number of tokens above 0, got ${window}`);
  if (!(usageSkew > 0 && usageSkew <= 10)) throw invalidOption(`usageSkew must be above 0 and at most 10, got ${usageSkew}`);
  if (triggerTokens !== undefined && !(Number.isInteger(triggerTokens) && triggerTokens > 0)) {
    throw invalidOption(`triggerTokens must be a whole number above 0, got ${triggerTokens}`);
  }
  const provider = await createSimulatedProviderCounter(encoding);
  const result = emptyResult(policy, window, triggerTokens);
  const summarizer = countedSummarizer(options.summarizer ?? factualNoteSummarizer(), provider, result);
  const store = memoryStore();
  const restore = createRestoreHandler(store);
  // Without a named summarizer the preset runs as it does with no model: tier 0 skips and trim writes its
  // factual note, which is priced below as if the model had written it (DESIGN.md §11).
  const ctxkit = policy === 'ctxkit' ? createCtxkitReplay({ window, maxOutputTokens, triggerTokens, ...(options.summarizer ? { summarizer } : {}), store, encoding }) : undefined;
  const context: PolicyContext = {
    window,
    maxOutputTokens,
    triggerTokens,
    tokens: (messages) => provider.count(messages),
    countText: provider.countText,
    summarize: (messages, instructions) => summarizer.summarize({ messages, instructions }),
  };
  const peer: ReplayPolicy | undefined = policy === 'ctxkit' ? undefined : peerPolicies[policy](context);
  const retention = createRetentionTracker({ nearMessages: options.nearMessages ?? 4, moves: recorded.filter((message) => message.role === 'assistant') });
  const originals = new Map<string, string>();
  for (const message of recorded) if (message.role === 'tool') originals.set(message.toolCallId, textOf(message.content));
  return { options, window, maxOutputTokens, usageSkew, result, provider, ctxkit, peer, retention, restore, originals, history: [], previous: [], compactedAt: Number.NEGATIVE_INFINITY };
}

/** The policy's request for this step from the history so far; the history becomes what the policy kept. */
async function policyRequest(state: ReplayState, step: number): Promise<{ request: readonly Message[]; report?: PrepareReport }> {
  const { result, ctxkit } = state;
  if (ctxkit) {
    const { request, report } = await ctxkit.prepare(state.history);
    if (report.compacted) result.compactions += 1;
    if (report.refill) result.refills += 1;
    if (report.compacted) priceNotes(report, request, state.provider, result);
    if (report.decision === 'nothing-shrank') addWarning(result, step, `over the threshold (${report.measurement.total} > ${report.threshold}) and no tier could shrink it`);
    state.history = [...request];
    return { request, report };
  }
  const outcome = await state.peer!.step(state.history);
  if (outcome.history) state.history = outcome.history;
  if (outcome.compacted) {
    result.compactions += 1;
    if (step - state.compactedAt <= 2) result.refills += 1;
    state.compactedAt = step;
  }
  return { request: outcome.request };
}

/**
 * A request over the window is an overflow; ctxkit classifies the provider's error, recovers and sends
 * again (peers have no recovery). Returns the request as finally sent and its tokens.
 */
async function sendWithin(state: ReplayState, step: number, request: readonly Message[]): Promise<{ request: readonly Message[]; sent: number }> {
  const { window, maxOutputTokens, result, ctxkit, provider } = state;
  const fits = (sent: number) => sent + maxOutputTokens <= window;
  const sent = provider.count(request);
  if (fits(sent)) return { request, sent };
  result.overflows += 1;
  if (!ctxkit) return { request, sent };
  const recovery = await ctxkit.manager.recover(request, classifyError(overflowError(window, sent)));
  if (recovery.action !== 'retry') {
    addWarning(result, step, `overflow: the provider counted ${tokens(sent)}, recover said ${recovery.action}${recovery.action === 'give-up' ? `: ${recovery.reason}` : ''}`);
    return { request, sent };
  }
  const recovered = recovery.messages;
  const resent = provider.count(recovered);
  state.history = [...recovered];
  if (fits(resent)) result.recoveredOverflows += 1;
  else
    addWarning(result, step, `after recovering from an overflow the provider still counted ${tokens(resent)}, over the ${tokens(window - maxOutputTokens)} the window holds with its output reserve`);
  return { request: recovered, sent: resent };
}

/** Input accounting for a sent request: peak, total, the prefix shared with the previous request, and the usage ctxkit is told. */
function recordSent(state: ReplayState, request: readonly Message[], sent: number): void {
  const { result, provider, previous } = state;
  result.peakInputTokens = Math.max(result.peakInputTokens, sent);
  result.totalInputTokens += sent;
  let common = 0;
  while (common < request.length && common < previous.length && sameMessage(request[common], previous[common])) common += 1;
  if (common > 0) result.cachedPrefixTokens += Math.min(sent, provider.count(request.slice(0, common)));
  // A copy: the history array grows in place after this, and the cache only holds what was sent.
  state.previous = request.slice();
  state.ctxkit?.manager.record({ model: 'simulated', usage: { inputTokens: Math.round(sent * state.usageSkew) }, messageCount: request.length, messages: request });
}

/** One assistant message of the recording: the policy's request, sent, scored, checked; then the recorded answer joins the history. */
async function replayStep(state: ReplayState, message: Message, totalSteps: number): Promise<void> {
  const { result, options } = state;
  const step = ++result.steps;
  const before = state.history;
  const prepared = await policyRequest(state, step);
  const { report } = prepared;
  const { request, sent } = await sendWithin(state, step, prepared.request);
  options.onRequest?.(request);
  state.retention.score(request, message);
  recordSent(state, request, sent);
  if (options.check) {
    const violation = (at: number, text: string) => addViolation(result, at, text);
    await checkStep(step, before, request, report, { violation, restore: state.restore, originals: state.originals });
  }
  result.outputTokens += state.provider.count([message]);
  state.history.push(message);
  state.retention.observe(message);
  options.onStep?.(step, totalSteps);
  if (state.ctxkit && report?.compacted && report.after !== undefined && report.after > report.threshold)
    addWarning(result, step, `after compacting the manager estimated ${tokens(report.after)}, still over its threshold of ${tokens(report.threshold)}`);
}

/**
 * Replays a recorded run step by step as an agent would send it: at each assistant message the history
 * so far is the request (compacted by the policy), the simulated provider counts it with its own
 * tokenizer and reports that (times `usageSkew`) as usage, a request over the window is rejected with a
 * provider error (ctxkit classifies it and recovers), and the run continues from what was sent.
 * Retention is scored against the recorded next move at every step.
 * @throws CtxkitError INVALID_ARGUMENT (source `simulate`) for an unknown policy, a window that is not a whole
 * number above 0, a usageSkew outside (0, 10] or a triggerTokens that is not a whole number above 0
 * @example const result = await simulateRun(parseJsonlTranscript(readFileSync('run.jsonl', 'utf8'), 'run.jsonl'), { window: 32_000, policy: 'ctxkit', check: true }); // parseJsonlTranscript from @ctxkit/core
 */
export async function simulateRun(recorded: readonly Message[], options: SimulateOptions): Promise<SimulationResult> {
  const state = await startReplay(recorded, options);
  const totalSteps = recorded.filter((message) => message.role === 'assistant').length;
  for (const message of recorded) {
    if (message.role === 'assistant') {
      await replayStep(state, message, totalSteps);
      continue;
    }
    state.history.push(message);
    state.retention.observe(message);
  }
  const { result } = state;
  const tally = state.retention.tally();
  result.retention = tally.retention;
  result.farRetention = tally.farRetention;
  result.retentionCounts = { namesUsed: tally.namesUsed, namesHeld: tally.namesHeld, farNamesUsed: tally.farNamesUsed, farNamesHeld: tally.farNamesHeld };
  if (options.prices) result.estimatedCostUsd = costOf(result, options.prices, options.summarizerPrices ?? options.prices);
  return result;
}

/**
 * The replay's cost: input not served from the cache at the input (or cache-write) price, cached input at
 * the cached price, output at the output price, and every summary at the summarizer model's prices.
 */
export function costOf(result: SimulationResult, prices: TokenPrices, summarizerPrices: TokenPrices): number {
  const uncached = result.totalInputTokens - result.cachedPrefixTokens;
  const requests = uncached * (prices.cacheWrite ?? prices.input) + result.cachedPrefixTokens * (prices.cachedInput ?? prices.input) + result.outputTokens * prices.output;
  const summaries = result.summarizerInputTokens * summarizerPrices.input + result.summarizerOutputTokens * summarizerPrices.output;
  return (requests + summaries) / 1_000_000;
}

/**
 * Prices each note a tier wrote without a model as the summary call it stands in for: the folded span's
 * tokens in (what the tier freed plus the note) and the note out.
 */
function priceNotes(report: PrepareReport, request: readonly Message[], provider: { count(messages: readonly Message[]): number }, result: SimulationResult): void {
  const notes = request.filter((message) => message.meta?.ctxkit?.kind === 'note');
  for (const tier of report.tiers) {
    if (tier.status !== 'applied' || !/factual note/.test(tier.reason ?? '')) continue;
    const note = notes.at(-1);
    const noteTokens = note ? provider.count([note]) : 0;
    result.summarizerCalls += 1;
    result.offlineNotes += 1;
    result.summarizerInputTokens += Math.max(0, tier.before - tier.after) + noteTokens;
    result.summarizerOutputTokens += noteTokens;
  }
}

/** The summarizer with every call counted on the simulated provider: its input span and instructions, its output. */
function countedSummarizer(summarizer: SummarizerPlugin, provider: { count(messages: readonly Message[]): number; countText(text: string): number }, result: SimulationResult): SummarizerPlugin {
  return {
    ...summarizer,
    async summarize(request) {
      try {
        const text = await summarizer.summarize(request);
        result.summarizerCalls += 1;
        result.summarizerInputTokens += provider.count(request.messages) + provider.countText(request.instructions ?? '');
        result.summarizerOutputTokens += provider.countText(typeof text === 'string' ? text : '');
        return text;
      } catch (error) {
        result.summarizerFailures += 1;
        result.summarizerError ??= error instanceof Error ? error.message : String(error);
        throw error;
      }
    },
  };
}

/** The checks of DESIGN.md §3 on one request against the history it was made from. */
async function checkStep(
  step: number,
  history: readonly Message[],
  request: readonly Message[],
  report: PrepareReport | undefined,
  tools: { violation: (step: number, text: string) => void; restore: (handle: string) => Promise<string>; originals: Map<string, string> },
): Promise<void> {
  const { violation } = tools;
  for (const issue of validateTranscript(request)) violation(step, `tool pairing or shape: message ${issue.index} ${issue.field}: ${issue.problem}`);
  if (history[0]?.role === 'system' && !sameMessage(request[0], history[0])) violation(step, 'the system message is not byte-identical');
  if (report?.compacted && report.protectedRegion) {
    const { by, size } = report.protectedRegion;
    const start = by === 'turns' ? recentTurnsStart(history, size) : (segmentRounds(history).at(-size)?.start ?? history.length);
    const recent = history.slice(start);
    const tail = request.slice(request.length - recent.length);
    if (recent.some((message, index) => !sameMessage(message, tail[index]))) violation(step, `the last ${size} ${by} are not verbatim`);
  }
  for (const message of request) {
    const handle = message.meta?.ctxkit?.handle;
    if (handle === undefined || message.role !== 'tool') continue;
    const restored = await tools.restore(handle);
    if (restored !== tools.originals.get(message.toolCallId)) violation(step, `archived result ${handle} does not restore byte for byte`);
  }
}
