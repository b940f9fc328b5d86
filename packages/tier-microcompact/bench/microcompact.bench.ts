// Microcompaction on the recorded runs of the corpus: what it frees at the end of each run, and what it
// costs next to serialising the same request (JSON.stringify of the transcript), interleaved, medians.
// Run: npx -y pnpm@12.4.2 bench microcompact   (from the workspace root)
import { type Message, memoryStore, segmentRounds, type TierContext } from '@ctxkit/core';
import { approximateCount, corpusDir, corpusMissingMessage, createTierContext, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { interleavedRounds, median } from '../../../tools/bench/measure.ts';
import { createRestoreHandler, microcompactTier } from '../src/index.ts';

if (!corpusDir()) {
  console.log(corpusMissingMessage);
  process.exit(0);
}

const rounds = 9;
const repeats = 20;

function context(messages: readonly Message[], store = memoryStore()): TierContext {
  const all = segmentRounds(messages);
  return createTierContext({ messages, protectedStart: all.at(-6)?.start ?? messages.length, store });
}

const tier = microcompactTier();
const savings: string[] = [];
const costs: string[] = [];
let longRunsFreed: number[] = [];
let worstRatio = 0;
let worstSteadyRatio = 0;

for (const file of listTrajectories()) {
  const messages = readTrajectory(file);
  const before = approximateCount(messages);
  const store = memoryStore();
  const outcome = await tier.apply(messages, context(messages, store));
  const after = outcome.status === 'applied' ? approximateCount(outcome.messages) : before;
  const stubs = outcome.status === 'applied' ? outcome.messages.filter((message) => message.meta?.ctxkit?.kind === 'stub').length : 0;
  const freed = (before - after) / before;
  const toolTokens = approximateCount(messages.filter((message) => message.role === 'tool'));
  const ofToolOutput = (before - after) / toolTokens;
  if (messages.length > 100) longRunsFreed.push(ofToolOutput);
  // Restoring every stub is part of the check, not of the timing.
  if (outcome.status === 'applied') {
    const restore = createRestoreHandler(store);
    for (const message of outcome.messages) if (message.meta?.ctxkit?.handle) await restore({ handle: message.meta.ctxkit.handle });
  }
  savings.push(
    `| ${file} | ${messages.length} | ${before.toLocaleString('en-US')} | ${after.toLocaleString('en-US')} | ${(freed * 100).toFixed(1)}% | ${(ofToolOutput * 100).toFixed(1)}% | ${stubs} | ${outcome.status === 'applied' ? '' : outcome.reason} |`,
  );

  // Interleaved rounds: baseline, first compaction (fresh store), steady state (same history again, stubs reused).
  const { baseline, first, steady } = await interleavedRounds(
    {
      baseline: () => JSON.stringify(messages),
      first: () => tier.apply(messages, context(messages)),
      steady: () => tier.apply(messages, context(messages, store)),
    },
    { rounds, calls: repeats },
  );
  const ratio = median(first) / median(baseline);
  const steadyRatio = median(steady) / median(baseline);
  worstRatio = Math.max(worstRatio, ratio);
  worstSteadyRatio = Math.max(worstSteadyRatio, steadyRatio);
  costs.push(`| ${file} | ${median(baseline).toFixed(3)} | ${median(first).toFixed(3)} | ${ratio.toFixed(2)}× | ${median(steady).toFixed(3)} | ${steadyRatio.toFixed(2)}× |`);
}

console.log('## Savings at the end of each run (defaults: keepRecent 3, minSavingsTokens 2,000, last 6 rounds protected; approximateCount)\n');
console.log('| run | messages | tokens before | after | freed | of the tool output | stubs | skipped because |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const line of savings) console.log(line);
console.log(`\n## Cost (ms, median of ${rounds} interleaved rounds of ${repeats} calls; memory store)\n`);
console.log('| run | JSON.stringify (baseline) | first compaction | ratio | same history again | ratio |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const line of costs) console.log(line);
longRunsFreed = longRunsFreed.sort((a, b) => a - b);
const leastFreed = longRunsFreed[0] ?? 0;
console.log('\n## Goals\n');
console.log(`- frees at least 70% of the tool-output tokens of every long run (> 100 messages) at its end: ${leastFreed >= 0.7 ? 'met' : 'not met'} (least: ${(leastFreed * 100).toFixed(1)}%)`);
console.log(`- a first compaction costs at most 10 request serialisations: ${worstRatio <= 10 ? 'met' : 'not met'} (worst: ${worstRatio.toFixed(2)}×)`);
console.log(`- compacting the same history again (stubs reused) costs at most 10 request serialisations: ${worstSteadyRatio <= 10 ? 'met' : 'not met'} (worst: ${worstSteadyRatio.toFixed(2)}×)`);
