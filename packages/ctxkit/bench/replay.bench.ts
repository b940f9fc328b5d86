// Replays every recorded run of the shared corpus under each policy at 32K and 64K windows, with a
// 4,096-token output reserve and the offline factual-note summarizer, and prints one markdown table per
// window. Run: npx -y pnpm@12.4.2 bench replay
import { corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { type SimulationResult, simulateRun, simulationPolicies } from '../src/simulate.ts';

if (!corpusDir()) {
  console.log(corpusMissingMessage);
  process.exit(0);
}
const format = (value: number) => value.toLocaleString('en-US');
for (const window of [32_000, 64_000]) {
  console.log(`\n### ${format(window)}-token window, 4,096 output reserve\n`);
  console.log('| run | policy | steps | compactions | refills | overflows | peak input | total input | cached prefix | violations |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const file of listTrajectories()) {
    const recorded = readTrajectory(file);
    for (const policy of simulationPolicies) {
      const result: SimulationResult = await simulateRun(recorded, { window, maxOutputTokens: 4_096, policy, check: true });
      const share = result.totalInputTokens === 0 ? 0 : Math.round((100 * result.cachedPrefixTokens) / result.totalInputTokens);
      console.log(
        `| ${file.replace('.jsonl', '')} | ${policy} | ${result.steps} | ${result.compactions} | ${result.refills} | ${result.overflows} | ${format(result.peakInputTokens)} | ${format(result.totalInputTokens)} | ${format(result.cachedPrefixTokens)} (${share}%) | ${result.invariantViolations} |`,
      );
    }
  }
}
