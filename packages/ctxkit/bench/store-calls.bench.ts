// Store calls per compaction: replays every recorded run of the shared corpus at a 32K window (the fleet
// bench's settings) on three counting in-memory stores: key by key (no batches, as every store was before
// decision 0096), with the batched read `getItems` (decision 0096), and with the batched writes `setItems`
// and `removeItems` too (decision 0098), and prints the calls each compacting step made. Calls, not time: on a networked store each is a round trip (fleet.bench.ts times them on Redis).
// Run: npx -y pnpm@12.4.2 bench store-calls
import { type Message, memoryStore, type StoreEntry, type StorePlugin } from '@ctxkit/core';
import { corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { factualNoteSummarizer } from '@ctxkit/tier-trim';
import { median } from '../../../tools/bench/measure.ts';
import { createCtxkit } from '../src/preset.ts';

if (!corpusDir()) {
  console.log(corpusMissingMessage);
  process.exit(0);
}

interface Counted {
  store: StorePlugin;
  reads: number;
  writes: number;
}

/** Which batched calls a counting store offers: none, the read, or the read and the writes. */
type Batches = 'none' | 'reads' | 'all';

/** A memory store that counts its calls: reads (`getItem`, `getItems`) and writes (set, claim, remove, and their batches). */
function countingStore(batches: Batches): Counted {
  const { getItems, setItems, removeItems, ...inner } = memoryStore();
  const counted: Counted = { reads: 0, writes: 0, store: inner };
  const read = <T>(result: Promise<T>) => {
    counted.reads += 1;
    return result;
  };
  const write = <T>(result: Promise<T>) => {
    counted.writes += 1;
    return result;
  };
  counted.store = {
    ...inner,
    getItem: (key) => read(inner.getItem(key)),
    setItem: (key, value) => write(inner.setItem(key, value)),
    removeItem: (key) => write(inner.removeItem(key)),
    setItemIfAbsent: (key, value) => write(inner.setItemIfAbsent!(key, value)),
    ...(batches !== 'none' ? { getItems: (keys: readonly string[]) => read(getItems!(keys)) } : {}),
    ...(batches === 'all' ? { setItems: (entries: readonly StoreEntry[]) => write(setItems!(entries)), removeItems: (keys: readonly string[]) => write(removeItems!(keys)) } : {}),
  };
  return counted;
}

/** Replays a run step by step, as fleet-worker.ts does, and returns the reads and writes of each compacting step. */
async function replay(recorded: readonly Message[], counted: Counted): Promise<{ steps: { reads: number; writes: number }[]; sent: string[] }> {
  const manager = createCtxkit({ model: 'm', contextWindow: 32_000, maxOutputTokens: 4_096, editedFiles: false, summarizer: factualNoteSummarizer(), store: counted.store });
  await manager.meter.ready();
  const steps: { reads: number; writes: number }[] = [];
  const sent: string[] = [];
  let history: Message[] = [];
  for (const message of recorded) {
    if (message.role === 'assistant') {
      counted.reads = 0;
      counted.writes = 0;
      const result = await manager.prepare(history);
      if (result.report.compacted) steps.push({ reads: counted.reads, writes: counted.writes });
      sent.push(JSON.stringify(result.messages));
      history = [...result.messages];
      manager.record({ usage: { inputTokens: result.report.after ?? result.report.measurement.total }, messageCount: result.messages.length });
    }
    history.push(message);
  }
  return { steps, sent };
}

const summary = (values: readonly number[]) => (values.length === 0 ? '–' : `${median(values)} / ${Math.max(...values)}`);
type Steps = { reads: number; writes: number }[];
const of = (steps: Steps, count: (step: Steps[number]) => number) => summary(steps.map(count));
console.log("\nStore calls per compacting step, 32,000-token window (median / max over the run's compactions)\n");
console.log(
  '| run | compactions | reads, key by key | reads, getItems | writes, key by key | writes, setItems | all calls, key by key | all calls, getItems | all calls, every batch | requests differing |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const file of listTrajectories()) {
  const recorded = readTrajectory(file);
  const keyByKey = await replay(recorded, countingStore('none'));
  const reads = await replay(recorded, countingStore('reads'));
  const all = await replay(recorded, countingStore('all'));
  const differing = [reads, all].map((run) => run.sent.filter((request, index) => request !== keyByKey.sent[index]).length);
  const calls = (step: Steps[number]) => step.reads + step.writes;
  console.log(
    `| ${file.replace('.jsonl', '')} | ${all.steps.length} | ${of(keyByKey.steps, (step) => step.reads)} | ${of(all.steps, (step) => step.reads)} | ${of(reads.steps, (step) => step.writes)} | ${of(all.steps, (step) => step.writes)} | ${of(keyByKey.steps, calls)} | ${of(reads.steps, calls)} | ${of(all.steps, calls)} | ${differing[0]}, ${differing[1]} |`,
  );
}
