// How the on-device tier plans its requests on the recorded runs: calls, how full each request fills the
// model's 4,096-token window, overflows, and what the learned token ratio changes on the next compaction.
// The model is the engine double; its "tokenizer" is o200k (exact, js-tiktoken), or o200k × 1.3 for a model
// whose tokenizer is less efficient than the estimate expects. Also the tier's own CPU cost per compaction
// with an engine that answers at once, against JSON.stringify of the transcript (a baseline in the same run).
// Run from the workspace root: `npx -y pnpm@12.4.2 bench tier-webllm`.
import type { Message, TierContext } from '@ctxkit/core';
import { corpusDir, corpusMissingMessage, createTierContext, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { tiktokenCounter } from '@ctxkit/tokens';
import { createEngineDouble } from '../src/engine-double.ts';
import { webllmTier } from '../src/webllm-tier.ts';
import { median } from '../../../tools/bench/measure.ts';

if (!corpusDir()) {
  console.log(corpusMissingMessage);
  process.exit(0);
}
const counter = tiktokenCounter('o200k_base');
await counter.load();
const window = 4_096;

const contextFor = (messages: readonly Message[]): TierContext => createTierContext({ messages, protectedStart: Math.max(3, messages.length - 6), targetTokens: 2_000 });

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;

for (const scale of [1, 1.3]) {
  console.log(`\n### Requests per compaction; the model counts ${scale === 1 ? 'like o200k' : 'o200k × 1.3'} (window ${window.toLocaleString('en-US')})\n`);
  console.log('| run | span tokens (o200k) | compaction | status | calls | overflows | mean fill | max fill | token ratio after |');
  console.log('|---|---:|---|---|---:|---:|---:|---:|---:|');
  for (const file of listTrajectories()) {
    const messages = readTrajectory(file);
    const engine = createEngineDouble({ countText: (text) => Math.ceil(scale * counter.count(text)) });
    const tier = webllmTier({ engine });
    const context = contextFor(messages);
    const span = messages
      .slice(2, context.protectedStart)
      .map((message) => JSON.stringify(message.content))
      .join('');
    for (const attempt of ['first', 'second'] as const) {
      const before = engine.calls.length;
      const outcome = await tier.apply(messages, context);
      const calls = engine.calls.slice(before);
      const fills = calls.filter((call) => !call.error).map((call) => (call.promptTokens + (call.request.max_tokens ?? 0)) / window);
      const overflows = calls.filter((call) => call.error).length;
      console.log(
        `| ${file} | ${counter.count(span).toLocaleString('en-US')} | ${attempt} | ${outcome.status} | ${calls.length} | ${overflows} | ${percent(fills.reduce((sum, fill) => sum + fill, 0) / Math.max(1, fills.length))} | ${percent(Math.max(...fills))} | ${tier.summarizer?.tokenRatio.toFixed(2)} |`,
      );
    }
  }
}

console.log('\n### Tier CPU cost per compaction, engine answering at once (ms, median of 7 interleaved rounds)\n');
console.log('| run | JSON.stringify (baseline) | webllm tier | ratio |');
console.log('|---|---:|---:|---:|');
for (const file of listTrajectories()) {
  const messages = readTrajectory(file);
  const baseline: number[] = [];
  const tierTimes: number[] = [];
  for (let round = 0; round < 7; round++) {
    let start = performance.now();
    JSON.stringify(messages);
    baseline.push(performance.now() - start);
    const tier = webllmTier({ engine: createEngineDouble() });
    start = performance.now();
    await tier.apply(messages, contextFor(messages));
    tierTimes.push(performance.now() - start);
  }
  const base = median(baseline);
  const cost = median(tierTimes);
  console.log(`| ${file} | ${base.toFixed(3)} | ${cost.toFixed(2)} | ${(cost / base).toFixed(1)}× |`);
}
