import { type Message, memoryStore, segmentRounds, validateTranscript } from '@ctxkit/core';
import { approximateCount, checkTierOutput, corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { tierContext } from './__fixtures__/tier-context.ts';
import { microcompactTier } from './microcompact-tier.ts';
import { createRestoreHandler } from './restore-handler.ts';

/** The engine's protected region for runs with one long user turn: the last `rounds` rounds. */
function protectedFrom(messages: readonly Message[], rounds = 6): number {
  const all = segmentRounds(messages);
  return all.at(-rounds)?.start ?? messages.length;
}

const hasCorpus = Boolean(corpusDir());
if (!hasCorpus) console.log(corpusMissingMessage);

describe.skipIf(!hasCorpus)('microcompaction on the recorded runs of the corpus', () => {
  it.each(hasCorpus ? listTrajectories() : [])('%s: compacts as it grows, stubs restore byte for byte, handles stay unique', async (file) => {
    const run = readTrajectory(file);
    const originals = new Map(run.flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message.content] as const] : [])));
    const store = memoryStore();
    const tier = microcompactTier();
    const restore = createRestoreHandler(store);
    const handleOwner = new Map<string, string>();
    let transcript: Message[] = [];
    let applied = 0;
    // Three steps of a growing run: a third, two thirds, all of it, each built on the last compacted transcript.
    for (const fraction of [1 / 3, 2 / 3, 1]) {
      const end = segmentRounds(run).find((round) => round.end >= Math.floor(fraction * run.length))?.end ?? run.length;
      const before = [...transcript, ...run.slice(transcript.length, end)];
      const protectedStart = protectedFrom(before);
      const outcome = await tier.apply(before, tierContext({ messages: before, protectedStart, store }));
      if (outcome.status === 'failed') throw new Error(outcome.reason);
      if (outcome.status === 'skipped') {
        expect(outcome.reason).toMatch(/below minSavingsTokens|no tool results to archive/);
        transcript = before;
        continue;
      }
      applied += 1;
      const after = outcome.messages;
      expect(approximateCount(before) - approximateCount(after)).toBeGreaterThanOrEqual(2_000);
      expect(validateTranscript(after)).toEqual([]);
      expect(await checkTierOutput(before, after, { protectedStart, count: approximateCount, store })).toEqual([]);
      // A stub from an earlier step is carried over as it was, never archived again.
      for (const [index, message] of transcript.entries()) if (message.meta?.ctxkit?.kind === 'stub') expect(after[index]).toBe(message);
      for (const message of after) {
        const handle = message.meta?.ctxkit?.handle;
        if (handle === undefined || message.role !== 'tool') continue;
        expect(handleOwner.get(handle) ?? message.toolCallId, `${handle} names two results`).toBe(message.toolCallId);
        handleOwner.set(handle, message.toolCallId);
        expect(await restore({ handle })).toBe(originals.get(message.toolCallId));
      }
      transcript = after;
    }
    // The long runs have far more than 2,000 tokens of old tool output; the short ones may not.
    if (run.length > 100) expect(applied).toBeGreaterThan(0);
  });
});
