import { type Message, type TierOutcome, validateTranscript } from '@ctxkit/core';

/** True when the last `suffix` messages of `output` are those of `input` (the same objects, or equal as JSON). */
function keepsSuffix(input: readonly Message[], output: readonly Message[], suffix: number): boolean {
  if (output.length < suffix) return false;
  const kept = input.slice(input.length - suffix);
  return kept.every((message, index) => {
    const returned = output[output.length - suffix + index];
    return returned === message || JSON.stringify(returned) === JSON.stringify(message);
  });
}

/** True when `output` starts with the system message `input` starts with (the same object, or the same role and content). */
function keepsSystem(input: readonly Message[], output: readonly Message[]): boolean {
  const system = input[0];
  if (system?.role !== 'system' || output[0] === system) return true;
  return output[0]?.role === 'system' && output[0].content === system.content;
}

/**
 * Why a tier's output cannot be used, or undefined when it keeps the invariants the engine can check:
 * a message array, the protected recent `suffix` verbatim, the system message, a valid transcript.
 */
export function validateTierOutput(input: readonly Message[], output: readonly Message[], suffix: number): string | undefined {
  if (!Array.isArray(output)) return 'returned no message array';
  if (!keepsSuffix(input, output, suffix)) return 'changed the protected recent messages';
  if (!keepsSystem(input, output)) return 'changed the system message';
  const issues = validateTranscript(output);
  return issues.length > 0 ? `returned an invalid transcript (message ${issues[0]!.index} ${issues[0]!.field}: ${issues[0]!.problem})` : undefined;
}

/** A tier's outcome as the engine takes it, and the size of the transcript it leaves. */
export interface AcceptedOutcome {
  /** The tier's outcome, or a `failed` one when its output broke an invariant or grew the request. */
  readonly outcome: TierOutcome;
  /** Tokens of the request after the tier, by the engine's count (unchanged unless the outcome is `applied`). */
  readonly after: number;
  /** The tier's own figure (`TierOutcome.tokens`) when it disagreed with the engine's count. */
  readonly claimedTokens?: number;
}

/**
 * Takes a tier's outcome: an applied output is validated ({@link validateTierOutput}), then counted by
 * the engine. The count is cheap: the meter caches every message's count, so only messages the tier
 * made and did not count itself are tokenized. A figure the tier reported is checked against it, never
 * used in its place; a mismatch is returned as `claimedTokens`. An output larger than its input fails.
 */
export function acceptTierOutcome(input: readonly Message[], outcome: TierOutcome, suffix: number, currentTokens: number, count: (messages: readonly Message[]) => number): AcceptedOutcome {
  if (outcome.status !== 'applied') return { outcome, after: currentTokens };
  const problem = validateTierOutput(input, outcome.messages, suffix);
  if (problem) return { outcome: { status: 'failed', reason: problem }, after: currentTokens };
  const counted = count(outcome.messages);
  const mismatch = outcome.tokens !== undefined && outcome.tokens !== counted ? { claimedTokens: outcome.tokens } : {};
  if (counted > currentTokens) {
    return { outcome: { status: 'failed', reason: `output grew from ${currentTokens} to ${counted} tokens` }, after: currentTokens, ...mismatch };
  }
  return { outcome, after: counted, ...mismatch };
}
