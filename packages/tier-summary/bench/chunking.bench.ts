// Tier 0 on the recorded runs of the corpus, with a summarizer that answers at once like a model that
// honours maxOutputTokens (a Task line that names the task's key terms, then up to 400 tokens), so what is measured is
// ctxkit's own work: how many requests a span takes at each summarizer window, how many tokens they
// send in all next to the span itself, how full the fullest request is, and what the machinery costs
// next to serialising the same request (JSON.stringify of the transcript), interleaved, medians.
// Run: npx -y pnpm@12.4.2 bench chunking   (from the workspace root)
import { type Message, type SummarizeRequest, segmentRounds, type TierContext, textOf } from '@ctxkit/core';
import { approximateCount, corpusDir, corpusMissingMessage, createTierContext, listTrajectories, readTrajectory, scriptedSummarizer } from '@ctxkit/testkit';
import { costAgainstStringify, printStringifyCostTable, stringifyCostRow } from '../../../tools/bench/measure.ts';
import { summaryTier } from '../src/index.ts';
import { keyTerms } from '@ctxkit/summarize';

if (!corpusDir()) {
  console.log(corpusMissingMessage);
  process.exit(0);
}

const countText = (text: string) => Math.ceil(text.length / 4);
const windows = [4_096, 8_192, 32_768, 128_000];
const rounds = 9;
const repeats = 5;

function context(messages: readonly Message[], summarizer: TierContext['summarizer']): TierContext {
  return createTierContext({ messages, protectedStart: segmentRounds(messages).at(-6)?.start ?? messages.length, targetTokens: 9_600, countText, ...(summarizer ? { summarizer } : {}) });
}

/** Answers like a good model: a Task section that names the task's key terms, then filler up to min(maxOutputTokens, 400) tokens. */
function modelLike(request: SummarizeRequest): string {
  const task = textOf(request.messages[0]!.content).split('\n').slice(2, -1).join('\n');
  const head = `## Task\nThe task is about ${keyTerms(task).join(', ')}.\n## Done\n`;
  const size = Math.min(request.maxOutputTokens ?? 400, 400) * 4;
  return head + 'done '.repeat(Math.max(0, Math.floor((size - head.length) / 5)));
}
/** For timing: answers at once with a fixed-size text, so the stand-in's own work does not count. */
const instant = (request: SummarizeRequest) => `## Task\n${textOf(request.messages[0]!.content).slice(0, 600)}\n## Done\n${'done '.repeat(300)}`;
const recording = (window: number, requests: SummarizeRequest[]) =>
  scriptedSummarizer(
    (request) => {
      requests.push(request);
      return modelLike(request);
    },
    { contextWindow: window },
  );

const rows: string[] = [];
const worst = new Map<number, number>();
let worstFill = 0;
const rejections: string[] = [];
for (const file of listTrajectories()) {
  const messages = readTrajectory(file);
  const ctx = context(messages, undefined);
  const first = messages[0]?.role === 'system' ? 1 : 0;
  const spanTokens = approximateCount(messages.slice(first + 1, ctx.protectedStart));
  const cells: string[] = [];
  for (const window of windows) {
    const requests: SummarizeRequest[] = [];
    const outcome = await summaryTier().apply(messages, context(messages, recording(window, requests)));
    if (outcome.status !== 'applied') rejections.push(`${file} at ${window.toLocaleString('en')}: ${outcome.reason}`);
    const sent = requests.reduce((sum, request) => sum + countText(request.instructions) + approximateCount(request.messages), 0);
    const fill = Math.max(...requests.map((request) => (countText(request.instructions) + approximateCount(request.messages) + (request.maxOutputTokens ?? 0)) / window));
    worstFill = Math.max(worstFill, fill);
    const ratio = sent / spanTokens;
    if (messages.length > 100) worst.set(window, Math.max(worst.get(window) ?? 0, ratio));
    cells.push(`${requests.length} · ${ratio.toFixed(2)}× · ${(fill * 100).toFixed(0)}%${outcome.status === 'applied' ? '' : ' (rejected)'}`);
  }
  rows.push(`| ${file} | ${messages.length} | ${spanTokens.toLocaleString('en')} | ${cells.join(' | ')} |`);
}

console.log('## Requests per span at each summarizer window (requests · tokens sent ÷ span tokens · fullest request)\n');
console.log(`| run | messages | span tokens | ${windows.map((window) => `${window.toLocaleString('en')} window`).join(' | ')} |`);
console.log(`|---|---:|---:|${windows.map(() => '---:').join('|')}|`);
for (const row of rows) console.log(row);

// Cost of the machinery: render, chunk, frame, check; the summarizer answers at once (whether the
// final check accepts its answer does not matter here: every call has been made by then).
const costRows: string[] = [];
let worstCost = 0;
for (const file of listTrajectories().filter((name) => name.startsWith('minisweagent'))) {
  const messages = readTrajectory(file);
  const tier = summaryTier();
  const summarizer = scriptedSummarizer(instant, { contextWindow: 8_192 });
  const cost = await costAgainstStringify(messages, () => tier.apply(messages, context(messages, summarizer)), { rounds, calls: repeats });
  worstCost = Math.max(worstCost, cost.ratio);
  costRows.push(stringifyCostRow(file, cost));
}
printStringifyCostTable('\n## Machinery cost at an 8,192-token summarizer window (instant summarizer) vs JSON.stringify of the transcript\n', 'summaryTier.apply', costRows);

const goal = (met: boolean) => (met ? 'met' : 'NOT met');
if (rejections.length > 0) console.log(`\nRejected summaries:\n${rejections.map((line) => `- ${line}`).join('\n')}`);
console.log('\n## Goals\n');
console.log(`- every request fits its window (instructions + data + answer budget): fullest ${(worstFill * 100).toFixed(0)}% → ${goal(worstFill <= 1)}`);
console.log(`- long runs send at most 1.5× the span at a 4,096 window: worst ${(worst.get(4_096) ?? 0).toFixed(2)}× → ${goal((worst.get(4_096) ?? 0) <= 1.5)}`);
console.log(`- long runs send at most 1.15× the span at a 32,768 window: worst ${(worst.get(32_768) ?? 0).toFixed(2)}× → ${goal((worst.get(32_768) ?? 0) <= 1.15)}`);
console.log(`- the machinery costs at most 25× serialising the transcript: worst ${worstCost.toFixed(1)}× → ${goal(worstCost <= 25)}`);
