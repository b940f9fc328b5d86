// Tier 2 (trim) on the recorded runs of the corpus, without a summarizer: how small the factual note is
// next to the middle it replaces, and what building it costs next to serialising the same request
// (JSON.stringify of the transcript), interleaved, medians.
// Run: npx -y pnpm@12.4.2 bench trim   (from the workspace root)
import { type Message, segmentRounds, type TierContext } from '@ctxkit/core';
import { approximateCount, corpusDir, corpusMissingMessage, createTierContext, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { costAgainstStringify, printStringifyCostTable, stringifyCostRow } from '../../../tools/bench/measure.ts';
import { trimTier } from '../src/index.ts';

if (!corpusDir()) {
  console.log(corpusMissingMessage);
  process.exit(0);
}

const rounds = 9;
const repeats = 10;

/** The engine's setting for a 32,000-token window: target 9,600, the last 6 rounds protected. */
function context(messages: readonly Message[]): TierContext {
  return createTierContext({ messages, protectedStart: segmentRounds(messages).at(-6)?.start ?? messages.length, targetTokens: 9_600 });
}

const tier = trimTier();
const sizeRows: string[] = [];
const costRows: string[] = [];
let worstLongShare = 0;
let worstNote = 0;
let worstCost = 0;
for (const file of listTrajectories()) {
  const messages = readTrajectory(file);
  const outcome = await tier.apply(messages, context(messages));
  if (outcome.status !== 'applied') {
    sizeRows.push(`| ${file} | ${messages.length} | – | – | – | ${outcome.reason} |`);
    continue;
  }
  const note = outcome.messages.find((message) => message.meta?.ctxkit?.kind === 'note')!;
  const noteTokens = approximateCount([note]);
  const folded = note.meta!.ctxkit!.replaces!.length;
  const middleTokens = approximateCount(messages) - approximateCount(outcome.messages) + noteTokens;
  const share = noteTokens / middleTokens;
  if (messages.length > 100) worstLongShare = Math.max(worstLongShare, share);
  worstNote = Math.max(worstNote, noteTokens);
  sizeRows.push(
    `| ${file} | ${messages.length} | ${folded} · ${middleTokens.toLocaleString('en')} | ${noteTokens.toLocaleString('en')} | ${(share * 100).toFixed(1)}% | ${approximateCount(messages).toLocaleString('en')} → ${approximateCount(outcome.messages).toLocaleString('en')} |`,
  );

  const cost = await costAgainstStringify(messages, () => tier.apply(messages, context(messages)), { rounds, calls: repeats });
  worstCost = Math.max(worstCost, cost.ratio);
  costRows.push(stringifyCostRow(file, cost));
}

console.log('## The factual note next to the middle it replaces (tokens: ceil(characters / 4), as testkit counts)\n');
console.log('| run | messages | folded · middle tokens | note tokens | note ÷ middle | whole request |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of sizeRows) console.log(row);
printStringifyCostTable('\n## Cost of trimTier (note path) vs JSON.stringify of the transcript\n', 'trimTier.apply', costRows);

const goal = (met: boolean) => (met ? 'met' : 'NOT met');
console.log('\n## Goals\n');
console.log(`- on long runs (over 100 messages) the note is at most 2% of the middle: worst ${(worstLongShare * 100).toFixed(1)}% → ${goal(worstLongShare <= 0.02)}`);
console.log(`- no note over 1,500 tokens (maxNoteTokens): largest ${worstNote.toLocaleString('en')} → ${goal(worstNote <= 1_500)}`);
console.log(`- building the note costs at most 10× serialising the transcript: worst ${worstCost.toFixed(1)}× → ${goal(worstCost <= 10)}`);
