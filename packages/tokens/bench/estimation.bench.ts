// Benchmark 3: estimation error against exact o200k counts at every step of the recorded runs.
//
// At step k the request is the first k messages of a run. Its truth is the exact o200k count with
// ctxkit's framing (3 tokens a message, 3 a tool call, 3 a request); every estimator below uses the
// same framing, so the table compares how they estimate text. After each step the simulated provider
// reports the truth (as OpenAI would for gpt-4o), which is what calibration and the anchor learn from.
// - heuristic: characters ÷ 4 raised 25%, no calibration;
// - heuristic, calibrated: the same, multiplied by the ratio learned from the reports of earlier steps
//   (steps after the first report only), with no anchor, as after a compaction;
// - tokenx (and tokenx, calibrated): tokenx's estimateTokenCount for the text;
// - meter.measure: what the engine sees: the last report plus the calibrated estimate of the messages since.
// Deterministic: no timing, one pass.
import type { EstimatorPlugin, Message } from '@ctxkit/core';
import { createMeter, tiktokenCounter } from '@ctxkit/tokens';
import { estimateTokenCount } from 'tokenx';
import { environment, format, recordedRuns } from './shared.ts';

const tokenxEstimator: EstimatorPlugin<'tokenx'> = {
  specificationVersion: 'v1',
  kind: 'estimator',
  id: 'tokenx',
  estimate: (text) => estimateTokenCount(text),
};

const methods = ['heuristic', 'heuristic, calibrated', 'tokenx', 'tokenx, calibrated', 'meter.measure (anchor + calibrated tail)'] as const;
type Method = (typeof methods)[number];

interface Errors {
  /** |estimate − truth| ÷ truth, per step. */
  absolute: number[];
  /** (estimate − truth) ÷ truth, per step. */
  signed: number[];
}

const empty = (): Record<Method, Errors> => Object.fromEntries(methods.map((method) => [method, { absolute: [], signed: [] }])) as unknown as Record<Method, Errors>;

function note(errors: Errors, estimate: number, truth: number): void {
  errors.absolute.push(Math.abs(estimate - truth) / truth);
  errors.signed.push((estimate - truth) / truth);
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

async function main(): Promise<void> {
  const runs = recordedRuns();
  const exact = createMeter({ tokenizer: tiktokenCounter('o200k_base'), calibration: false });
  await exact.ready();
  const perRun = new Map<string, Record<Method, Errors>>();
  const pooled = empty();
  for (const { file, messages } of runs) {
    const errors = empty();
    const model = 'gpt-4o';
    const heuristic = createMeter();
    const heuristicCalibrated = createMeter();
    const tokenx = createMeter({ estimator: tokenxEstimator, calibration: false });
    const tokenxCalibrated = createMeter({ estimator: tokenxEstimator });
    const engine = createMeter();
    for (let step = 1; step <= messages.length; step++) {
      const request: Message[] = messages.slice(0, step);
      const truth = exact.countMessages(request, { exact: true });
      const record = (errorsOf: Method, estimate: number) => {
        note(errors[errorsOf], estimate, truth);
        note(pooled[errorsOf], estimate, truth);
      };
      record('heuristic', heuristic.countMessages(request, { model, exact: false }));
      record('tokenx', tokenx.countMessages(request, { model }));
      if (step > 1) {
        record('heuristic, calibrated', heuristicCalibrated.countMessages(request, { model }));
        record('tokenx, calibrated', tokenxCalibrated.countMessages(request, { model }));
        record('meter.measure (anchor + calibrated tail)', engine.measure(request, { model }).total);
      } else {
        engine.measure(request, { model });
      }
      for (const meter of [heuristicCalibrated, tokenxCalibrated, engine]) {
        if (meter !== engine) meter.measure(request, { model });
        meter.record({ inputTokens: truth, messageCount: step, model });
      }
    }
    perRun.set(file, errors);
  }

  console.log(`Estimation error against exact o200k counts at every step of ${runs.length} recorded runs (${format.number(pooled.heuristic.absolute.length)} steps); ${environment()}.\n`);
  console.log('| estimator | mean absolute error | mean signed error | 95th percentile | worst step |');
  console.log('|---|---:|---:|---:|---:|');
  for (const method of methods) {
    const { absolute, signed } = pooled[method];
    const sorted = [...absolute].sort((left, right) => left - right);
    console.log(
      `| ${method} | ${format.percent(mean(absolute), 2)} | ${signed.length ? `${mean(signed) >= 0 ? '+' : ''}${format.percent(mean(signed), 2)}` : '—'} | ${format.percent(sorted[Math.floor(0.95 * sorted.length)] ?? 0, 2)} | ${format.percent(sorted[sorted.length - 1] ?? 0, 2)} |`,
    );
  }
  console.log('\nMean absolute error per run:\n');
  console.log(`| run | steps | ${methods.join(' | ')} |`);
  console.log(`|---|---:|${methods.map(() => '---:').join('|')}|`);
  for (const [file, errors] of perRun) {
    console.log(`| ${file.replace(/\.jsonl$/, '')} | ${errors.heuristic.absolute.length} | ${methods.map((method) => format.percent(mean(errors[method].absolute), 2)).join(' | ')} |`);
  }
  const calibrated = mean(pooled['heuristic, calibrated'].absolute);
  console.log(`\nGoal (calibrated mean absolute error at most 3%): ${calibrated <= 0.03 ? 'met' : 'not met'} (${format.percent(calibrated, 2)}).`);
}

await main();
