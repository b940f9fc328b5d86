// One conversation of the fleet load test (fleet.bench.ts starts 16 of these as separate processes).
// Replays one recorded run step by step through two managers fed the same requests: one archiving to
// an in-memory store (the baseline), one to the shared Redis under its own conversationId, in
// alternating order. Prints per-step prepare() times and the archive check as JSON on stdout.
import { type Message, memoryStore, textOf } from '@ctxkit/core';
import { redisStore } from '@ctxkit/store-redis';
import { readTrajectory } from '@ctxkit/testkit';
import { createRestoreHandler } from '@ctxkit/tier-microcompact';
import { factualNoteSummarizer } from '@ctxkit/tier-trim';
import { createCtxkit } from '../src/preset.ts';

interface Job {
  url: string;
  conversationId: string;
  trajectory: string;
  window: number;
  deadlineMs: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const tag = `[conversation ${job.conversationId}]\n`;
// Each conversation's tool results carry its id, so an archive restored into the wrong conversation shows.
const recorded: Message[] = readTrajectory(job.trajectory).map((message) =>
  message.role === 'tool' && typeof message.content === 'string' ? { ...message, content: tag + message.content } : message,
);
const originals = new Map<string, string>();
for (const message of recorded) if (message.role === 'tool') originals.set(message.toolCallId, textOf(message.content));

const redis = redisStore({ url: job.url, base: 'fleet-bench' });
const settings = { model: 'm', contextWindow: job.window, maxOutputTokens: 4_096, editedFiles: false as const, summarizer: factualNoteSummarizer() };
const onMemory = createCtxkit({ ...settings, store: memoryStore() });
const onRedis = createCtxkit({ ...settings, store: redis, conversationId: job.conversationId });
await onMemory.meter.ready();
await onRedis.meter.ready();

const steps: { memoryMs: number; redisMs: number; compacted: boolean }[] = [];
const handles = new Map<string, string>();
let diverged = 0;
let memoryHistory: Message[] = [];
let redisHistory: Message[] = [];
const started = performance.now();
let step = 0;
let complete = true;
for (const message of recorded) {
  if (message.role === 'assistant') {
    if (performance.now() - started > job.deadlineMs) {
      complete = false;
      break;
    }
    step += 1;
    const time = async (manager: typeof onMemory, history: Message[]) => {
      const at = performance.now();
      const result = await manager.prepare(history);
      return { ...result, ms: performance.now() - at };
    };
    // Alternate which goes first, so neither always runs on a warmer cache.
    const [memory, shared] =
      step % 2 === 0
        ? await (async () => [await time(onMemory, memoryHistory), await time(onRedis, redisHistory)] as const)()
        : await (async () => {
            const second = await time(onRedis, redisHistory);
            return [await time(onMemory, memoryHistory), second] as const;
          })();
    steps.push({ memoryMs: memory.ms, redisMs: shared.ms, compacted: shared.report.compacted || memory.report.compacted });
    if (JSON.stringify(memory.messages) !== JSON.stringify(shared.messages)) diverged += 1;
    for (const sent of shared.messages) {
      if (sent.role === 'tool' && sent.meta?.ctxkit?.handle) handles.set(sent.meta.ctxkit.handle, sent.toolCallId);
    }
    memoryHistory = [...memory.messages];
    redisHistory = [...shared.messages];
    for (const [manager, result] of [
      [onMemory, memory],
      [onRedis, shared],
    ] as const) {
      manager.record({ usage: { inputTokens: result.report.after ?? result.report.measurement.total }, messageCount: result.messages.length });
    }
  }
  memoryHistory.push(message);
  redisHistory.push(message);
}

// Every stub the Redis-backed conversation sent restores, from a fresh handler, to its own original.
const restore = createRestoreHandler(redis, { conversationId: job.conversationId });
let lost = 0;
let crossed = 0;
for (const [handle, toolCallId] of handles) {
  const text = await restore({ handle });
  if (text.startsWith('No archived tool result')) lost += 1;
  else if (text !== originals.get(toolCallId) || !text.startsWith(tag)) crossed += 1;
}
await redis.close();
process.stdout.write(JSON.stringify({ conversationId: job.conversationId, trajectory: job.trajectory, steps, complete, archived: handles.size, lost, crossed, diverged }));
