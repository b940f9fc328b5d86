// Fleet load test: 16 conversations at once, each in its own worker process (fleet-worker.ts), replaying
// the recorded runs of the shared corpus (run i % 8) at a 32K window through one real redis-server on
// 127.0.0.1. Every step is prepared twice in the same worker, on an in-memory store and on Redis, so the
// overhead is measured against the in-memory baseline under the same load. Bounded: each worker stops
// after 120 s; 3 rounds, medians over rounds. Then every stub each conversation sent is restored and compared with its own original.
// Run: npx -y pnpm@12.4.2 bench fleet
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { corpusDir, corpusMissingMessage, listTrajectories, redisMissingMessage, redisServerPath, startRedisServer } from '@ctxkit/testkit';
import { median } from '../../../tools/bench/measure.ts';

if (!corpusDir()) {
  console.log(corpusMissingMessage);
  process.exit(0);
}
if (!redisServerPath()) {
  console.log(redisMissingMessage);
  process.exit(0);
}

// `npx -y pnpm@12.4.2 bench fleet 1` runs one conversation alone: the overhead without contention.
const conversations = Number(process.argv[2] ?? 16);
const window = 32_000;
const deadlineMs = 120_000;

interface WorkerResult {
  conversationId: string;
  trajectory: string;
  steps: { memoryMs: number; redisMs: number; compacted: boolean }[];
  complete: boolean;
  archived: number;
  lost: number;
  crossed: number;
  diverged: number;
}

function runWorker(job: Record<string, unknown>): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@ctxkit/source', join(import.meta.dirname, 'fleet-worker.ts'), JSON.stringify(job)], {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout) as WorkerResult) : reject(new Error(`worker ${String(job.conversationId)} exited ${code}`))));
  });
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

const rounds = 3;
const stats = (entries: WorkerResult['steps']) => {
  const memory = entries.map((entry) => entry.memoryMs);
  const redis = entries.map((entry) => entry.redisMs);
  const overhead = entries.map((entry) => entry.redisMs - entry.memoryMs);
  return {
    prepared: entries.length,
    memory50: percentile(memory, 50),
    redis50: percentile(redis, 50),
    memory99: percentile(memory, 99),
    redis99: percentile(redis, 99),
    overhead50: percentile(overhead, 50),
    overhead99: percentile(overhead, 99),
  };
};
type Stats = ReturnType<typeof stats>;
const perRound: { all: Stats; compacting: Stats; wallSeconds: number; results: WorkerResult[] }[] = [];
for (let round = 0; round < rounds; round++) {
  const server = await startRedisServer({ appendfsync: 'everysec' });
  const wallStarted = performance.now();
  try {
    const runs = listTrajectories();
    const results = await Promise.all(
      Array.from({ length: conversations }, (_, index) =>
        runWorker({ url: server.url, conversationId: `load-${String(index + 1).padStart(2, '0')}`, trajectory: runs[index % runs.length]!, window, deadlineMs }),
      ),
    );
    const steps = results.flatMap((result) => result.steps);
    perRound.push({ all: stats(steps), compacting: stats(steps.filter((entry) => entry.compacted)), wallSeconds: (performance.now() - wallStarted) / 1_000, results });
  } finally {
    await server.close();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const row = (label: string, pick: (round: (typeof perRound)[number]) => Stats) => {
  const of = (key: keyof Stats) => median(perRound.map((round) => pick(round)[key]));
  return `| ${label} | ${of('prepared')} | ${ms(of('memory50'))} | ${ms(of('redis50'))} | ${ms(of('memory99'))} | ${ms(of('redis99'))} | ${ms(of('overhead50'))} | ${ms(of('overhead99'))} | ${(of('redis50') / of('memory50')).toFixed(2)}× |`;
};
const walls = perRound.map((round) => `${round.wallSeconds.toFixed(1)} s`).join(', ');
console.log(
  `\n${conversations} conversations in ${conversations} worker processes, one redis-server, ${window.toLocaleString('en-US')}-token window; ${rounds} rounds (wall ${walls}); medians over rounds of each statistic\n`,
);
console.log('| steps | prepared per round | p50 memory | p50 Redis | p99 memory | p99 Redis | p50 overhead | p99 overhead | p50 ratio |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
console.log(row('all', (round) => round.all));
console.log(row('compacting', (round) => round.compacting));
const results = perRound.flatMap((round) => round.results);
const sum = (pick: (result: WorkerResult) => number) => results.reduce((total, result) => total + pick(result), 0);
console.log(`\n| rounds × conversations | replayed to the end | steps replayed | archived handles restored | lost | crossed | requests differing memory vs Redis |`);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
console.log(
  `| ${rounds} × ${conversations} | ${results.filter((result) => result.complete).length} | ${sum((result) => result.steps.length)} | ${sum((result) => result.archived)} | ${sum((result) => result.lost)} | ${sum((result) => result.crossed)} | ${sum((result) => result.diverged)} |`,
);
if (sum((result) => result.lost + result.crossed) > 0) {
  console.error('FAILED: archives lost or crossed between conversations');
  process.exit(1);
}
