import { CtxkitError, type Message, messageListProblem, type TierContext, type TierOutcome, type TierPlugin } from '@ctxkit/core';
import { archivedDetail, commitArchive, oldestEnough, releaseReservations } from './archive-commit.ts';
import { type ArchivePlan, type Plan, planArchive } from './archive-plan.ts';
import { createDigestCache } from './digest-cache.ts';
import { type MicrocompactOptions, microcompactSettings } from './microcompact-settings.ts';
import { groupDigits } from './stub-text.ts';

/**
 * Microcompaction: tool results older than the most recent `keepRecent`, and outside the protected recent
 * turns, become one-line stubs such as
 * `[tool result 7 archived: read_file src/app.ts, 12,480 tokens; restore with restore_tool_result("r7")]`.
 * The originals go to `context.store` under their handle (`r7`), with the call's id, tool name and
 * arguments; the model gets any of them back through the {@link restoreToolResultTool} tool, answered
 * by {@link createRestoreHandler}.
 *
 * When to use: coding and browsing agents whose old tool output (files read, command output, search
 * results) fills the window. It keeps every message in place, so the model still sees what it did.
 *
 * Gotchas: it skips (reason given) unless it frees `minSavingsTokens`, so a nearly-fitting transcript is
 * left for a later tier. Handles are numbered per store: give each run its own store or key prefix. A
 * stub is never archived again, and the same result archived twice (a host that prepares its full
 * history each step) keeps its first handle, so stubs, and the prompt cache behind them, stay stable.
 * @default keepRecent 3, minSavingsTokens 2000, minResultTokens 100
 * @throws CtxkitError INVALID_ARGUMENT for a bad option (at creation, not during a run)
 * @example
 * ```ts
 * const registry = createRegistry([summaryTier(), microcompactTier({ keepRecent: 3 }), imageStripTier(), trimTier()]);
 * // and in the agent: tools.push(toOpenAITool(restoreToolResultTool)); restore = createRestoreHandler(store)
 * ```
 */
export function microcompactTier(options: MicrocompactOptions = {}): TierPlugin<'microcompact'> {
  const settings = microcompactSettings(options);
  const { minSavingsTokens } = settings;
  const digestOf = createDigestCache();

  return {
    specificationVersion: 'v1',
    kind: 'tier',
    id: 'microcompact',
    category: 'structural',
    async apply(messages, context): Promise<TierOutcome> {
      const { protectedStart, signal } = context;
      const problem = messageListProblem(messages);
      if (problem !== undefined) return { status: 'failed', reason: problem };
      if (typeof protectedStart !== 'number' || Number.isNaN(protectedStart)) {
        return { status: 'failed', reason: `context.protectedStart must be a message index, got ${String(protectedStart)}` };
      }
      if (signal.aborted) return { status: 'failed', reason: 'aborted before it started', error: signal.reason };
      const end = Math.min(Math.max(0, Math.floor(protectedStart)), messages.length);
      let planned: ArchivePlan | string;
      try {
        planned = await planArchive(messages, context, end, settings, digestOf);
      } catch (error) {
        // A store that is down is not the tier failing: it skips, says why, and the next tier compacts instead.
        if (CtxkitError.isInstance(error, 'STORE_ERROR')) return { status: 'skipped', reason: `could not read the archive store, transcript unchanged: ${error.message}` };
        return { status: 'failed', reason: error instanceof Error ? error.message : String(error), error };
      }
      if (typeof planned === 'string') return { status: 'skipped', reason: planned };
      const plans = settings.archive === 'all' ? planned.plans : oldestEnough(planned.plans, messages, context, minSavingsTokens);
      const outcome = await applyPlans(messages, context, plans, planned.nextNumber, minSavingsTokens);
      await releaseReservations(context.store, planned.reserved, outcome.status === 'applied' ? plans : []);
      return outcome;
    },
  };
}

/** Puts the chosen stubs in place and archives their originals, or says why the transcript stays as it is. */
async function applyPlans(messages: readonly Message[], context: TierContext, plans: readonly Plan[], nextNumber: number, minSavingsTokens: number): Promise<TierOutcome> {
  const { signal } = context;

  const output = messages.slice();
  for (const { index, stub } of plans) output[index] = stub;
  const before = context.currentTokens;
  const after = context.count(output);
  const freed = before - after;
  if (freed <= 0) return { status: 'skipped', reason: `stubs would not shrink the transcript (${groupDigits(before)} → ${groupDigits(after)} tokens)` };
  if (freed < minSavingsTokens) {
    return {
      status: 'skipped',
      reason: `archiving ${plans.length} tool result${plans.length === 1 ? '' : 's'} would free only ${groupDigits(freed)} tokens, below minSavingsTokens (${groupDigits(minSavingsTokens)}); left unchanged to keep the prompt cache`,
    };
  }
  if (signal.aborted) return { status: 'failed', reason: 'aborted before archiving; transcript unchanged', error: signal.reason };
  try {
    await commitArchive(context.store, plans, nextNumber);
  } catch (error) {
    return { status: 'skipped', reason: `could not archive to the store, transcript unchanged: ${(error as Error)?.message ?? String(error)}` };
  }
  return { status: 'applied', messages: output, tokens: after, detail: archivedDetail(plans, freed) };
}
