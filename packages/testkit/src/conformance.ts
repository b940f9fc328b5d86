import { describe, expect, it } from 'vitest';
import { type Message, memoryStore, recentTurnsStart, type StorePlugin, type SummarizerPlugin, safeCutIndex, type TierOutcome, type TierPlugin, validateTranscript } from '@ctxkit/core';
import fc from 'fast-check';
import { approximateCount } from './approximate-count.ts';
import { deterministicSummarizer } from './summarizers.ts';
import { createTierContext } from './tier-context.ts';
import { type TranscriptArbitraryOptions, transcriptArbitrary } from './transcript-arbitrary.ts';

/** JSON with sorted keys, so two messages compare equal whatever order their keys were written in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

/** What {@link checkTierOutput} needs besides the two transcripts. */
export interface TierOutputCheck {
  protectedStart: number;
  count(messages: readonly Message[]): number;
  /** The store the tier archived into; stubs' handles are looked up here. */
  store?: StorePlugin;
}

/**
 * The invariants of DESIGN.md §3, checked on one tier output. Returns one line per violation; empty when
 * all hold: system message byte-identical and first; valid tool pairing, and every call that had a result
 * still has one; the protected recent messages verbatim; every removed message traced (kept, or named in a
 * `meta.ctxkit.replaces` of a summary, note or stub); every stub's handle restorable; output not larger.
 */
export async function checkTierOutput(input: readonly Message[], output: readonly Message[], check: TierOutputCheck): Promise<string[]> {
  const violations: string[] = [];
  if (!Array.isArray(output)) return [`output is not an array of messages (got ${typeof output})`];
  if (input[0]?.role === 'system' && canonical(output[0]) !== canonical(input[0])) {
    violations.push('the system message is not byte-identical at index 0');
  }
  if (output.some((message, index) => index > 0 && message.role === 'system')) violations.push('a system message appears after index 0');
  for (const issue of validateTranscript(output)) violations.push(`invalid output: message ${issue.index} ${issue.field}: ${issue.problem}`);

  const answered = (messages: readonly Message[]) => new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  const answeredBefore = answered(input);
  const answeredAfter = answered(output);
  for (const message of output) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      if (answeredBefore.has(call.id) && !answeredAfter.has(call.id)) violations.push(`tool call ${call.id} had a result and lost it`);
    }
  }

  const recent = input.slice(check.protectedStart);
  const tail = output.slice(output.length - recent.length);
  if (recent.length > output.length || recent.some((message, index) => canonical(message) !== canonical(tail[index]))) {
    violations.push(`the ${recent.length} protected recent messages (from index ${check.protectedStart}) are not verbatim at the end`);
  }

  const kept = new Set(output.map(canonical));
  const replaced = new Set(output.flatMap((message) => message.meta?.ctxkit?.replaces ?? []));
  input.slice(0, check.protectedStart).forEach((message, index) => {
    if (message.role === 'system') return;
    const key = message.id ?? `#${index}`;
    if (!kept.has(canonical(message)) && !replaced.has(key)) violations.push(`message ${index} (${message.role}) disappeared without a trace`);
  });

  for (const message of output) {
    const handle = message.meta?.ctxkit?.handle;
    if (handle !== undefined && (!check.store || (await check.store.getItem(handle)) === null)) {
      violations.push(`stub handle ${handle} cannot be restored from the store`);
    }
  }

  const before = check.count(input);
  const after = check.count(output);
  if (after > before) violations.push(`output is larger than input (${after} > ${before} tokens)`);
  return violations;
}

/** Options for {@link checkTierConformance} and {@link runTierConformance}. */
export interface TierConformanceOptions {
  /** Generated transcripts to try. @default 1000 */
  runs?: number;
  /** fast-check seed, to replay a failure. */
  seed?: number;
  /** The summarizer in the tier's context; `null` for none. @default deterministicSummarizer() */
  summarizer?: SummarizerPlugin | null;
  /** Shape of the generated transcripts. */
  transcripts?: TranscriptArbitraryOptions;
}

/** How often the tier did something across the generated transcripts. */
export interface TierConformanceReport {
  runs: number;
  applied: number;
  skipped: number;
  failed: number;
}

/**
 * Runs a tier on many generated transcripts (with varied protected regions and targets) and checks
 * {@link checkTierOutput} on each. Rejects with fast-check's shrunk counterexample and the violations
 * when any invariant breaks, or when the tier mutated its input.
 */
export async function checkTierConformance(tierFactory: () => TierPlugin, options: TierConformanceOptions = {}): Promise<TierConformanceReport> {
  const { runs = 1000, seed, summarizer = deterministicSummarizer(), transcripts } = options;
  const report: TierConformanceReport = { runs: 0, applied: 0, skipped: 0, failed: 0 };
  const scenario = fc.record({
    messages: transcriptArbitrary(transcripts),
    keepTurns: fc.integer({ min: 0, max: 4 }),
    roundCut: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    targetFraction: fc.double({ min: 0.1, max: 0.95, noNaN: true }),
  });
  const property = fc.asyncProperty(scenario, async ({ messages, keepTurns, roundCut, targetFraction }) => {
    // Protected regions as the engine draws them: by turns, or at a round boundary when turns cover everything.
    const protectedStart = roundCut === null ? recentTurnsStart(messages, keepTurns) : Math.max(messages[0]?.role === 'system' ? 1 : 0, safeCutIndex(messages, Math.floor(roundCut * messages.length)));
    const store = memoryStore();
    const before = canonical(messages);
    const context = createTierContext({
      protectedStart,
      targetTokens: Math.floor(approximateCount(messages) * targetFraction),
      messages,
      store,
      ...(summarizer ? { summarizer } : {}),
    });
    const outcome: TierOutcome = await tierFactory().apply(messages, context);
    report.runs += 1;
    report[outcome.status] += 1;
    const violations = canonical(messages) === before ? [] : ['the tier mutated its input'];
    if (outcome.status === 'applied') {
      violations.push(...(await checkTierOutput(messages, outcome.messages, { protectedStart, count: approximateCount, store })));
      const measured = outcome.tokens === undefined || !Array.isArray(outcome.messages) ? undefined : approximateCount(outcome.messages);
      if (measured !== undefined && outcome.tokens !== measured) violations.push(`the tier reported ${outcome.tokens} tokens for an output that counts ${measured}`);
    }
    if (violations.length > 0) throw new Error(`tier broke the invariants:\n  ${violations.join('\n  ')}`);
  });
  await fc.assert(property, { numRuns: runs, includeErrorInReport: true, ...(seed === undefined ? {} : { seed }) });
  return report;
}

/**
 * Registers a vitest suite that holds a tier to the invariants of DESIGN.md §3 on 1,000 generated
 * transcripts, and checks that the tier did compact some of them (a tier that always skips proves nothing).
 * @example
 * ```ts
 * import { runTierConformance } from '@ctxkit/testkit';
 * runTierConformance(() => microcompactTier({ keepRecent: 1, minSavingsTokens: 0 }));
 * ```
 */
export function runTierConformance(tierFactory: () => TierPlugin, options: TierConformanceOptions = {}): void {
  const name = tierFactory().id;
  describe(`tier conformance: ${name}`, () => {
    it(`keeps the invariants of DESIGN.md §3 on ${options.runs ?? 1000} generated transcripts`, async () => {
      const report = await checkTierConformance(tierFactory, options);
      expect(report.applied, `the ${name} tier never compacted a generated transcript`).toBeGreaterThan(0);
    }, 120_000);
  });
}
