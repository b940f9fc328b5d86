import type { Message, SummarizerPlugin, TierContext, TierOutcome, TierPlugin } from '@ctxkit/core';
import type { TierReport } from './events.ts';
import type { ManagerParts } from './manager-parts.ts';
import { acceptTierOutcome } from './validate-tier-output.ts';

/** What every tier of one compaction is handed besides the transcript: the meter's counts, the target, the summarizer. */
export interface CompactionScope {
  readonly parts: ManagerParts;
  readonly targetTokens: number;
  /** Tokens of the fixed floor, counted once per compaction. */
  readonly floorTokens: number;
  readonly count: (messages: readonly Message[]) => number;
  readonly countText: (text: string) => number;
  readonly signal: AbortSignal;
  readonly summarizer: SummarizerPlugin | undefined;
}

/** The transcript as the tiers leave it, carried from tier to tier with its size, so nothing counts it twice. */
export interface TierPass {
  current: readonly Message[];
  /** Tokens of `current`, whole request: the step's measurement, then each accepted tier's `after`. */
  currentTokens: number;
  /** Length of the protected recent suffix every tier leaves verbatim. */
  suffix: number;
  readonly reports: TierReport[];
}

const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

/** The context one tier runs with: the protected start, the sizes the engine measured, the engine's capabilities. */
function tierContext(scope: CompactionScope, tier: TierPlugin, pass: TierPass): TierContext {
  return {
    protectedStart: pass.current.length - pass.suffix,
    targetTokens: scope.targetTokens,
    currentTokens: pass.currentTokens,
    floorTokens: scope.floorTokens,
    count: scope.count,
    countText: scope.countText,
    store: scope.parts.store,
    signal: scope.signal,
    ...(scope.summarizer ? { summarizer: scope.summarizer } : {}),
    progress: (detail) => scope.parts.emit({ type: 'tier-progress', tier: tier.id, ...detail }),
  };
}

/** The tier's outcome; a tier that throws fails with the error. */
async function applyTier(tier: TierPlugin, messages: readonly Message[], context: TierContext): Promise<TierOutcome> {
  try {
    return await tier.apply(messages, context);
  } catch (error) {
    return { status: 'failed', reason: `threw: ${error instanceof Error ? error.message : String(error)}`, error };
  }
}

/** Runs one tier on the pass: an accepted output becomes the pass's transcript and size. */
async function runTier(scope: CompactionScope, tier: TierPlugin, pass: TierPass): Promise<TierReport> {
  const before = pass.currentTokens;
  if (tier.category === 'on-device' && scope.parts.options.onDeviceCompaction === false) {
    return { id: tier.id, status: 'skipped', reason: 'on-device compaction is switched off', before, after: before, durationMs: 0 };
  }
  const startedAt = now();
  scope.parts.emit({ type: 'tier-start', tier: tier.id, tokens: before });
  const applied = await applyTier(tier, pass.current, tierContext(scope, tier, pass));
  const { outcome, after, claimedTokens } = acceptTierOutcome(pass.current, applied, pass.suffix, before, scope.count);
  if (outcome.status === 'applied') pass.current = outcome.messages;
  const reason = outcome.status === 'applied' ? outcome.detail : outcome.reason;
  const report: TierReport = {
    id: tier.id,
    status: outcome.status,
    ...(reason ? { reason } : {}),
    before,
    after,
    ...(claimedTokens === undefined ? {} : { claimedTokens }),
    durationMs: Math.round(now() - startedAt),
  };
  scope.parts.emit({ type: 'tier-end', tier: tier.id, report });
  pass.currentTokens = after;
  return report;
}

/** Runs the tiers in order until the request is at or below the target; each tier's report is added to the pass. */
export async function runTiers(scope: CompactionScope, pass: TierPass): Promise<void> {
  for (const tier of scope.parts.tiers) {
    if (pass.currentTokens <= scope.targetTokens) break;
    pass.reports.push(await runTier(scope, tier, pass));
  }
}
