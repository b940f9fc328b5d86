import { type Message, type SummarizerPlugin, segmentRounds } from '@ctxkit/core';
import type { Measurement } from '@ctxkit/tokens';
import type { ReinjectedBlock, TierReport } from './events.ts';
import type { ManagerParts } from './manager-parts.ts';
import { providerFor } from './model-limits.ts';
import { type ProtectedRegion, protectedRegion } from './protected-region.ts';
import { collectReinjection } from './reinjection.ts';
import type { SummarizerReport } from './summarizer-guard.ts';
import { type CompactionScope, runTiers, type TierPass } from './tier-loop.ts';

/** What one compaction is asked to do. */
export interface CompactionRequest {
  readonly model: string;
  readonly tools: readonly unknown[] | undefined;
  readonly target: number;
  readonly threshold: number;
  readonly trigger: 'threshold' | 'overflow';
  readonly signal: AbortSignal | undefined;
  /** What the step measured; the tier loop starts from it when it is in the loop's own unit (see {@link startingTokens}). */
  readonly measurement: Measurement;
  /**
   * True when an `estimate` in `measurement` went through `meter.exceeds` (prepare's confirmation before
   * it compacts), which recounts exactly whenever the meter can: an estimate that stands there means the
   * meter has no exact counter. False for a plain `meter.measure` (recover).
   */
  readonly estimateConfirmed: boolean;
}

/** What one compaction did. */
export interface Compaction {
  readonly messages: Message[];
  /** Tokens of the request before and after, by the meter's local count (the unit every tier counts in). */
  readonly before: number;
  readonly after: number;
  readonly tiers: TierReport[];
  readonly reinjected: ReinjectedBlock[];
  readonly region: ProtectedRegion;
  /** True when at least one tier applied. */
  readonly applied: boolean;
  readonly summarizerReport: SummarizerReport | undefined;
}

const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

/** The summarizer tiers get: the registered one, else the one the provider serving the model offers. */
export function summarizerFor(parts: ManagerParts, model: string): SummarizerPlugin | undefined {
  if (parts.summarizer) return parts.summarizer;
  const serving = providerFor(model, parts.providers);
  return serving?.provider.summarizer?.(serving.model);
}

/**
 * The size the tier loop starts from. Tiers count with `context.count`, the meter's local count of the
 * whole request with no provider anchor, so the loop works in that unit. The step's measurement is that
 * very count when it was made locally without an anchor in the counter `count` uses: `exact`, or an
 * `estimate` that `meter.exceeds` let stand (it recounts exactly whenever the meter has an exact
 * counter). An anchored (`reported`) figure, or an estimate the loaded tokenizer would now replace, is
 * not; then the transcript is counted once here, from the meter's per-message cache.
 * docs/decisions/0041-one-size-per-step.md
 */
export function startingTokens(request: CompactionRequest, messages: readonly Message[], count: (messages: readonly Message[]) => number): number {
  const { source, total } = request.measurement;
  const inLoopUnit = source === 'exact' || (source === 'estimate' && request.estimateConfirmed);
  return inLoopUnit ? total : count(messages);
}

/**
 * Still over the threshold with a wide recent region: the region itself is what does not fit. Narrows
 * the protected suffix to the last round, or returns undefined when it is that narrow already.
 */
function narrowToLastRound(pass: TierPass, threshold: number): ProtectedRegion | undefined {
  const lastRound = segmentRounds(pass.current).at(-1)?.start ?? pass.current.length;
  if (pass.currentTokens <= threshold || pass.current.length - lastRound >= pass.suffix) return undefined;
  pass.suffix = pass.current.length - lastRound;
  return { start: lastRound, by: 'rounds', size: 1 };
}

/** Puts back what the run needs after an applied compaction, in one message just before the protected suffix. */
async function reinject(scope: CompactionScope, original: readonly Message[], pass: TierPass): Promise<ReinjectedBlock[]> {
  const { options, reinjectionSources, emit } = scope.parts;
  if (options.reinjection === false || reinjectionSources.length === 0) return [];
  const result = await collectReinjection(reinjectionSources, {
    original,
    compacted: pass.current,
    budgetTokens: options.reinjection?.budgetTokens ?? 10_000,
    countText: scope.countText,
    signal: scope.signal,
  });
  for (const failure of result.failures) emit({ type: 'reinjection-failed', ...failure });
  if (!result.message) return [];
  const at = pass.current.length - pass.suffix;
  pass.current = [...pass.current.slice(0, at), result.message, ...pass.current.slice(at)];
  pass.currentTokens = scope.count(pass.current);
  emit({ type: 'reinjected', blocks: result.blocks });
  return result.blocks;
}

/** Records the attempt with the breaker, announcing it when this attempt opened it. */
function recordAttempt(parts: ManagerParts, before: number, after: number): void {
  if (!parts.breaker.recordAttempt(before, after).opened) return;
  const snapshot = parts.breaker.snapshot();
  parts.emit({ type: 'breaker-open', consecutiveFailures: snapshot.consecutiveFailures, retryAtTokens: snapshot.retryAtTokens ?? 0 });
}

/**
 * One compaction: runs the tiers in order until the request is at or below the target (a second pass
 * with only the last round protected when still over the threshold), reinjects, and records the attempt.
 */
export async function compact(parts: ManagerParts, messages: readonly Message[], request: CompactionRequest): Promise<Compaction> {
  const { meter, emit, options } = parts;
  await meter.ready();
  // After ready() the meter counts exactly when it has a tokenizer, and estimates (calibrated) without one.
  const count = (list: readonly Message[]) => meter.countMessages(list, { tools: request.tools, model: request.model });
  const countText = (text: string) => meter.countText(text, { model: request.model });
  const before = startingTokens(request, messages, count);
  const floorTokens = count([]);
  const startedAt = now();
  emit({ type: 'compaction-start', model: request.model, tokens: before, threshold: request.threshold, target: request.target, trigger: request.trigger });
  const guarded = parts.summarizerGuard.begin(summarizerFor(parts, request.model));
  const signal = request.signal ?? new AbortController().signal;
  const scope: CompactionScope = { parts, targetTokens: request.target, floorTokens, count, countText, signal, summarizer: guarded.summarizer };
  // The protected region is chosen once, on the transcript as it came, and kept as a suffix of fixed
  // length: every tier leaves it verbatim at the end, so its start moves only with what tiers fold.
  let region = protectedRegion(messages, options.keepRecentTurns ?? 6, request.target * (options.recentRegionShare ?? 0.5), (start) =>
    meter.countMessages(messages.slice(start), { model: request.model }),
  );
  const pass: TierPass = { current: messages, currentTokens: before, suffix: messages.length - region.start, reports: [] };
  await runTiers(scope, pass);
  const narrowed = narrowToLastRound(pass, request.threshold);
  if (narrowed) {
    region = narrowed;
    await runTiers(scope, pass);
  }
  const applied = pass.reports.some((report) => report.status === 'applied');
  const reinjected = applied ? await reinject(scope, messages, pass) : [];
  if (applied && options.reinjection !== false) options.reinjection?.resetReadCache?.();
  recordAttempt(parts, before, pass.currentTokens);
  if (applied) meter.reset();
  emit({ type: 'compaction-end', model: request.model, before, after: pass.currentTokens, shrunk: pass.currentTokens < before, durationMs: Math.round(now() - startedAt) });
  const summarizerReport = guarded.finish();
  return { messages: [...pass.current], before, after: pass.currentTokens, tiers: pass.reports, reinjected, region, applied, summarizerReport };
}
