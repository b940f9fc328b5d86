import {
  type Message,
  memoryStore,
  recentTurnsStart,
  type SummarizerPlugin,
  segmentRounds,
  textOf,
  validateTranscript,
} from '@ctxkit/core';
import type { PrepareReport } from '@ctxkit/engine';
import { createRestoreHandler } from '@ctxkit/tier-microcompact';
import { factualNoteSummarizer } from '@ctxkit/tier-trim';
import { createMeter, type TiktokenEncoding, tiktokenCounter } from '@ctxkit/tokens';
import { createCtxkit } from './preset.ts';

/** The ways of keeping a run in its window that `simulate` compares. */
export const simulationPolicies = ['none', 'sliding-window', 'summarize-at-90', 'ctxkit'] as const;
/** One of {@link simulationPolicies}. */
export type SimulationPolicy = (typeof simulationPolicies)[number];

/** Prices in US dollars per million tokens. */
export interface TokenPrices {
  input: number;
  cachedInput?: number;
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
  /** Verify the invariants of DESIGN.md §3 at every step and count violations. @default false */
  check?: boolean;
  /** The simulated provider's tokenizer. @default 'o200k_base' */
  encoding?: TiktokenEncoding;
  /** Prices for the cost estimate. */
  prices?: TokenPrices;
  /** Called after each step, for progress bars. */
  onStep?: (step: number, steps: number) => void;
  /** Called with every request as it would be sent. */
  onRequest?: (request: readonly Message[]) => void;
}

/** What one replay of a recorded run cost under one policy. */
export interface SimulationResult {
  policy: SimulationPolicy;
  window: number;
  /** Requests sent: one per assistant message of the recording. */
  steps: number;
  compactions: number;
  /** Compactions followed by a request over the threshold again within 2 steps. */
  refills: number;
  /** Requests that would not fit in the window with their output reserve. */
  overflows: number;
  peakInputTokens: number;
  totalInputTokens: number;
  /** Input tokens that were the same prefix as the previous request's (what a prompt cache can serve). */
  cachedPrefixTokens: number;
  outputTokens: number;
  estimatedCostUsd?: number;
  invariantViolations: number;
  /** The first violations found, each with its step. */
  violations: string[];
}

const sameMessage = (a: Message | undefined, b: Message | undefined) => a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));

/** Drops the oldest rounds (the task too: it is naive) until the request fits with its output reserve. */
function slidingWindow(history: readonly Message[], fits: (messages: readonly Message[]) => boolean): Message[] {
  const system = history[0]?.role === 'system' ? [history[0]] : [];
  const rounds = segmentRounds(history);
  for (const round of rounds) {
    const candidate = [...system, ...history.slice(round.start)];
    if (fits(candidate)) return candidate;
  }
  return [...system, ...history.slice(rounds.at(-1)?.start ?? history.length)];
}

/**
 * Replays a recorded run step by step as an agent would send it: at each assistant message the history
 * so far is the request (compacted by the policy), the simulated provider counts it exactly and reports
 * that as usage, and the run continues from what was sent.
 * @example const result = await simulateRun(readTrajectory('run.jsonl'), { window: 32_000, policy: 'ctxkit', check: true });
 */
export async function simulateRun(recorded: readonly Message[], options: SimulateOptions): Promise<SimulationResult> {
  const { window, maxOutputTokens = 4_096, policy = 'ctxkit', check = false, encoding = 'o200k_base' } = options;
  const summarizer = options.summarizer ?? factualNoteSummarizer();
  const provider = createMeter({ tokenizer: tiktokenCounter(encoding) });
  await provider.ready();
  const tokens = (messages: readonly Message[]) => provider.countMessages(messages, { exact: true });
  const fits = (messages: readonly Message[]) => tokens(messages) + maxOutputTokens <= window;
  const store = memoryStore();
  const restore = createRestoreHandler(store);
  const manager =
    policy === 'ctxkit'
      ? createCtxkit({ model: 'simulated', contextWindow: window, maxOutputTokens, summarizer, store, editedFiles: false, encoding })
      : undefined;
  const originals = new Map<string, string>();
  for (const message of recorded) if (message.role === 'tool') originals.set(message.toolCallId, textOf(message.content));

  const result: SimulationResult = {
    policy,
    window,
    steps: 0,
    compactions: 0,
    refills: 0,
    overflows: 0,
    peakInputTokens: 0,
    totalInputTokens: 0,
    cachedPrefixTokens: 0,
    outputTokens: 0,
    invariantViolations: 0,
    violations: [],
  };
  const violation = (step: number, text: string) => {
    result.invariantViolations += 1;
    if (result.violations.length < 20) result.violations.push(`step ${step}: ${text}`);
  };
  const totalSteps = recorded.filter((message) => message.role === 'assistant').length;
  let history: Message[] = [];
  let previous: readonly Message[] = [];
  let compactedAt = Number.NEGATIVE_INFINITY;

  for (const message of recorded) {
    if (message.role !== 'assistant') {
      history.push(message);
      continue;
    }
    const step = ++result.steps;
    const before = history;
    let request: readonly Message[] = history;
    let report: PrepareReport | undefined;
    if (policy === 'ctxkit') {
      ({ messages: request, report } = await manager!.prepare(history));
      if (report.compacted) result.compactions += 1;
      if (report.refill) result.refills += 1;
      history = [...request];
    } else if (policy === 'sliding-window' && !fits(history)) {
      request = slidingWindow(history, fits);
      result.compactions += 1;
      if (step - compactedAt <= 2) result.refills += 1;
      compactedAt = step;
    } else if (policy === 'summarize-at-90' && tokens(history) > window * 0.9) {
      const system = history[0]?.role === 'system' ? [history[0]] : [];
      const keepFrom = segmentRounds(history).at(-1)?.start ?? history.length;
      const folded = history.slice(system.length, keepFrom);
      const text = await summarizer.summarize({ messages: folded, instructions: 'Summarize the conversation so far for the agent that continues it.' });
      const summary: Message = { role: 'user', content: `[summary of ${folded.length} earlier messages]\n${text}`, meta: { ctxkit: { kind: 'summary', by: 'summarize-at-90' } } };
      request = [...system, summary, ...history.slice(keepFrom)];
      history = [...request];
      result.compactions += 1;
      if (step - compactedAt <= 2) result.refills += 1;
      compactedAt = step;
    }

    options.onRequest?.(request);
    const sent = tokens(request);
    if (sent + maxOutputTokens > window) result.overflows += 1;
    result.peakInputTokens = Math.max(result.peakInputTokens, sent);
    result.totalInputTokens += sent;
    let common = 0;
    while (common < request.length && common < previous.length && sameMessage(request[common], previous[common])) common += 1;
    if (common > 0) result.cachedPrefixTokens += Math.min(sent, tokens(request.slice(0, common)));
    // A copy: the history array grows in place after this, and the cache only holds what was sent.
    previous = request.slice();
    manager?.record({ model: 'simulated', usage: { inputTokens: sent }, messageCount: request.length, messages: request });
    if (check) await checkStep(step, before, request, report, { violation, restore, originals });
    result.outputTokens += tokens([message]);
    history.push(message);
    options.onStep?.(step, totalSteps);
  }
  if (options.prices) {
    const { input, cachedInput = input, output } = options.prices;
    result.estimatedCostUsd = ((result.totalInputTokens - result.cachedPrefixTokens) * input + result.cachedPrefixTokens * cachedInput + result.outputTokens * output) / 1_000_000;
  }
  return result;
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
