// Image stripping on a generated computer-use run (a screenshot of ~150 KB base64 after every action):
// what it frees, and what it costs next to serialising the same request (JSON.stringify), interleaved, medians.
// Run: npx -y pnpm@12.4.2 bench images   (from the workspace root)
import { type Message, segmentRounds, type TierContext, textOf } from '@ctxkit/core';
import { createTierContext } from '@ctxkit/testkit';
import { interleavedRounds, median } from '../../../tools/bench/measure.ts';
import { imageStripTier } from '../src/index.ts';

const rounds = 9;
const repeats = 20;
const screenshotTokens = 1_200; // about what Anthropic and OpenAI (high detail) charge for a 1280×800 screenshot

function count(messages: readonly Message[]): number {
  let tokens = 0;
  for (const message of messages) {
    tokens += 4 + Math.ceil(textOf(message.content).length / 4);
    if (typeof message.content !== 'string') tokens += screenshotTokens * message.content.filter((part) => part.type === 'image').length;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) tokens += Math.ceil((call.name.length + call.arguments.length) / 4) + 3;
  }
  return tokens;
}

function computerUseRun(steps: number): Message[] {
  // Different bytes per screenshot, so nothing can be shared between them.
  const screenshot = (step: number) => `${step.toString(36)}${'iVBORw0KGgoAAAANSUhEUgAAB'.repeat(6_000)}`;
  const messages: Message[] = [
    { role: 'system', content: 'You control a computer with the computer tool.' },
    { role: 'user', content: 'Open the settings, turn on dark mode, and confirm it took effect.' },
  ];
  for (let step = 1; step <= steps; step++) {
    const id = `toolu_${step}`;
    messages.push({
      role: 'assistant',
      content: `Step ${step}: clicking the next control.`,
      toolCalls: [{ id, name: 'computer', arguments: `{"action":"left_click","coordinate":[${step * 7},${step * 3}]}` }],
    });
    messages.push({
      role: 'tool',
      toolCallId: id,
      toolName: 'computer',
      content: [
        { type: 'text', text: 'clicked' },
        { type: 'image', mediaType: 'image/png', data: screenshot(step) },
      ],
    });
  }
  return messages;
}

function context(messages: readonly Message[]): TierContext {
  return createTierContext({ messages, protectedStart: segmentRounds(messages).at(-6)?.start ?? messages.length, count });
}

const tier = imageStripTier();
const lines: string[] = [];
let worst = 0;
for (const steps of [20, 60, 150]) {
  const messages = computerUseRun(steps);
  const outcome = await tier.apply(messages, context(messages));
  const before = count(messages);
  const after = outcome.status === 'applied' ? count(outcome.messages) : before;
  const bytesBefore = JSON.stringify(messages).length;
  const bytesAfter = outcome.status === 'applied' ? JSON.stringify(outcome.messages).length : bytesBefore;
  const { baseline, strip } = await interleavedRounds({ baseline: () => JSON.stringify(messages), strip: () => tier.apply(messages, context(messages)) }, { rounds, calls: repeats });
  const ratio = median(strip) / median(baseline);
  worst = Math.max(worst, ratio);
  lines.push(
    `| ${steps} | ${before.toLocaleString('en-US')} | ${after.toLocaleString('en-US')} | ${(((before - after) / before) * 100).toFixed(1)}% | ${(bytesBefore / 1e6).toFixed(1)} MB → ${(bytesAfter / 1e6).toFixed(2)} MB | ${median(baseline).toFixed(2)} | ${median(strip).toFixed(3)} | ${ratio.toFixed(3)}× |`,
  );
}
console.log(`## Image stripping (defaults: keepRecent 3, last 6 rounds protected; ${screenshotTokens} tokens a screenshot; ms are medians of ${rounds} interleaved rounds of ${repeats} calls)\n`);
console.log('| steps | tokens before | after | freed | request size | JSON.stringify (baseline) | strip | ratio |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const line of lines) console.log(line);
console.log('\n## Goals\n');
console.log(`- stripping costs less than one request serialisation (it never copies image data): ${worst < 1 ? 'met' : 'not met'} (worst: ${worst.toFixed(3)}×)`);
