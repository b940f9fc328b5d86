// Benchmark 1: exact counting throughput (o200k_base) of ctxkit's counter against plain js-tiktoken,
// gpt-tokenizer and ai-tokenizer, on text the process has not seen before.
//
// Every measurement runs in a fresh Node process, so no piece or merge cache has seen the text:
// - "cold": the first text the process counts after loading the ranks;
// - "unseen, warm process": the other half of the corpus (other recorded runs), timed after the
//   process counted the first half, as in a long-lived agent process meeting new tool output.
// The two halves swap every round; libraries run interleaved, in a rotated order, for several rounds;
// the tables show medians, and ratios are taken within a round.
import { fileURLToPath } from 'node:url';
import { median } from '../../../tools/bench/measure.ts';
import { environment, format, inFreshProcess, recordedRuns, textsOf } from './shared.ts';

const libraries = ['ctxkit', 'js-tiktoken', 'gpt-tokenizer', 'ai-tokenizer'] as const;
type Library = (typeof libraries)[number];

interface ChildResult {
  loadMs: number;
  rssMb: number;
  firstMs: number;
  secondMs: number;
  firstChars: number;
  secondChars: number;
  counts: number[];
}

async function counterFor(library: Library): Promise<(text: string) => number> {
  switch (library) {
    case 'ctxkit': {
      const { tiktokenCounter } = await import('@ctxkit/tokens');
      const counter = tiktokenCounter('o200k_base');
      await counter.load();
      return (text) => counter.count(text);
    }
    case 'js-tiktoken': {
      const { Tiktoken } = await import('js-tiktoken/lite');
      const ranks = (await import('js-tiktoken/ranks/o200k_base')).default;
      const encoder = new Tiktoken(ranks);
      return (text) => encoder.encode(text, [], []).length;
    }
    case 'gpt-tokenizer': {
      const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
      return (text) => countTokens(text);
    }
    case 'ai-tokenizer': {
      const { Tokenizer } = await import('ai-tokenizer');
      const encoding = await import('ai-tokenizer/encoding/o200k_base');
      const tokenizer = new Tokenizer(encoding);
      return (text) => tokenizer.count(text);
    }
  }
}

function halves(): [string[], string[]] {
  const runs = recordedRuns();
  const even = runs.filter((_, index) => index % 2 === 0).flatMap((run) => textsOf(run.messages));
  const odd = runs.filter((_, index) => index % 2 === 1).flatMap((run) => textsOf(run.messages));
  return [even, odd];
}

async function child(library: Library, firstHalf: number): Promise<void> {
  const [even, odd] = halves();
  const [first, second] = firstHalf === 0 ? [even, odd] : [odd, even];
  const started = performance.now();
  const count = await counterFor(library);
  const loadMs = performance.now() - started;
  const rssMb = process.memoryUsage().rss / 1e6;
  const time = (texts: string[]) => {
    const begin = performance.now();
    const counts = texts.map(count);
    return { ms: performance.now() - begin, counts };
  };
  const one = time(first);
  const two = time(second);
  const chars = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0);
  // Counts in one fixed order (even half, then odd), whatever order they were timed in.
  const counts = firstHalf === 0 ? [...one.counts, ...two.counts] : [...two.counts, ...one.counts];
  const result: ChildResult = { loadMs, rssMb, firstMs: one.ms, secondMs: two.ms, firstChars: chars(first), secondChars: chars(second), counts };
  console.log(JSON.stringify(result));
}

function main(): void {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
  const script = fileURLToPath(import.meta.url);
  const [even, odd] = halves();
  const totalChars = [...even, ...odd].reduce((sum, text) => sum + text.length, 0);
  const results: Record<Library, ChildResult[]> = { ctxkit: [], 'js-tiktoken': [], 'gpt-tokenizer': [], 'ai-tokenizer': [] };
  for (let round = 0; round < rounds; round++) {
    const order = libraries.map((_, index) => libraries[(index + round) % libraries.length]!);
    for (const library of order) results[library].push(inFreshProcess<ChildResult>(script, ['--child', library, String(round % 2)]));
    process.stderr.write(`round ${round + 1}/${rounds} done\n`);
  }
  const reference = results['js-tiktoken'][0]!.counts;
  const mbPerSecond = (chars: number, ms: number) => chars / 1e6 / (ms / 1000);
  const cold = (result: ChildResult) => mbPerSecond(result.firstChars, result.firstMs);
  const unseen = (result: ChildResult) => mbPerSecond(result.secondChars, result.secondMs);
  console.log(
    `Exact o200k_base counting, ${format.number(totalChars / 1e6, 2)} M characters of recorded-run text in two halves; ${rounds} rounds, a fresh process per measurement; ${environment()}.\n`,
  );
  console.log('| counter | cold MB/s | unseen text, warm process MB/s | ctxkit ÷ this, cold | ctxkit ÷ this, unseen | rank load ms | RSS after load MB | counts identical to js-tiktoken |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const library of libraries) {
    const runs = results[library];
    const coldRatio = median(runs.map((run, round) => cold(results.ctxkit[round]!) / cold(run)));
    const unseenRatio = median(runs.map((run, round) => unseen(results.ctxkit[round]!) / unseen(run)));
    const mismatches = runs[0]!.counts.filter((count, index) => count !== reference[index]).length;
    console.log(
      `| ${library} | ${format.number(median(runs.map(cold)), 1)} | ${format.number(median(runs.map(unseen)), 1)} | ${library === 'ctxkit' ? '—' : format.ratio(coldRatio)} | ${library === 'ctxkit' ? '—' : format.ratio(unseenRatio)} | ${format.number(median(runs.map((run) => run.loadMs)))} | ${format.number(median(runs.map((run) => run.rssMb)))} | ${mismatches === 0 ? `yes (${reference.length} texts)` : `no: ${mismatches} of ${reference.length} texts differ`} |`,
    );
  }
  const fastestOther = Math.max(...libraries.filter((library) => library !== 'ctxkit').map((library) => median(results[library].map(cold))));
  const ours = median(results.ctxkit.map(cold));
  console.log(
    `\nGoal (at least as fast as the fastest other, cold, counts identical): ${ours >= fastestOther ? 'met' : 'not met'} (${format.number(ours, 1)} vs ${format.number(fastestOther, 1)} MB/s).`,
  );
}

const childIndex = process.argv.indexOf('--child');
if (childIndex >= 0) await child(process.argv[childIndex + 1] as Library, Number(process.argv[childIndex + 2]));
else main();
