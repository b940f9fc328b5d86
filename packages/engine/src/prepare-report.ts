import type { CompactionSnapshot } from '@ctxkit/threshold';
import type { Measurement } from '@ctxkit/tokens';
import type { Compaction } from './compact.ts';
import type { WindowDecision } from './decide-window.ts';
import type { PrepareReport } from './manager-types.ts';

/** What a prepare or a recover found before it reports: the window, the measurement, and the decision it took. */
export interface StepFindings {
  readonly model: string;
  readonly window: WindowDecision;
  readonly measurement: Measurement;
  readonly decision: PrepareReport['decision'];
  readonly refill: boolean;
  /** The compaction, when one ran. */
  readonly compaction?: Compaction | undefined;
}

/** The report of a prepare or a recover: what was measured and decided, and what a compaction did. */
export function buildPrepareReport(findings: StepFindings, breaker: CompactionSnapshot): PrepareReport {
  const { window, compaction } = findings;
  return {
    model: findings.model,
    limits: window.limits,
    maxOutputTokens: window.maxOutputTokens,
    threshold: window.threshold,
    target: window.target,
    thresholdReason: window.reason,
    measurement: findings.measurement,
    compacted: compaction?.applied ?? false,
    decision: findings.decision,
    ...(compaction ? { after: compaction.after } : {}),
    tiers: compaction?.tiers ?? [],
    reinjected: compaction?.reinjected ?? [],
    ...(compaction?.region ? { protectedRegion: compaction.region } : {}),
    refill: findings.refill,
    breaker,
    ...(compaction?.summarizerReport ? { summarizer: compaction.summarizerReport } : {}),
  };
}
