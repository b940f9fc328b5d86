import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Message, SummarizerPlugin } from '@ctxkit/core';
import { anthropicProvider } from '@ctxkit/provider-anthropic';
import { geminiProvider } from '@ctxkit/provider-gemini';
import { llamacppProvider } from '@ctxkit/provider-llamacpp';
import { lmstudioProvider } from '@ctxkit/provider-lmstudio';
import { ollamaProvider } from '@ctxkit/provider-ollama';
import { openaiProvider } from '@ctxkit/provider-openai';
import { openrouterProvider } from '@ctxkit/provider-openrouter';
import { vllmProvider } from '@ctxkit/provider-vllm';
import { demoSession } from '../demo-session.ts';
import { defaultTrigger, type SimulationPolicy, type SimulationResult, simulateRun, simulationPolicies, type TokenPrices } from '../simulate.ts';
import { type CommandValues, policyOf, text } from './commands.ts';
import { maxOutputOption, readTranscript, tokensOption, UsageError, windowsOption } from './input.ts';
import { nearestPrices } from './nearest-prices.ts';
import { type CliIo, counted, formatNumber, formatPercent, progressBar, table } from './output.ts';
import { loadPlotLibraries, type PlotLibraries, retentionPlotSvg } from './plot.ts';

/** A provider's options with the base URL `--summarizer-url` gave, if any. */
const at = (baseURL: string | undefined) => (baseURL ? { baseURL } : {});

const providerFactories: Record<string, (baseURL?: string) => { summarizer?: (model: string, options?: { timeoutMs?: number }) => SummarizerPlugin }> = {
  openai: (baseURL) => openaiProvider(at(baseURL)),
  anthropic: (baseURL) => anthropicProvider(at(baseURL)),
  gemini: (baseURL) => geminiProvider(at(baseURL)),
  openrouter: (baseURL) => openrouterProvider(at(baseURL)),
  ollama: (baseURL) => ollamaProvider(at(baseURL)),
  lmstudio: (baseURL) => lmstudioProvider(at(baseURL)),
  vllm: (baseURL) => vllmProvider(at(baseURL)),
  llamacpp: (baseURL) => llamacppProvider(at(baseURL)),
};

/** `--summarizer-url`: where the summarizer's provider answers, when not at its usual address. */
function summarizerURLOption(value: string | undefined, summarizer: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (summarizer === undefined) throw new UsageError('--summarizer-url says where the --summarizer model answers: use it with --summarizer');
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw new UsageError(`--summarizer-url must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  return value;
}

function summarizerOption(value: string | undefined, baseURL: string | undefined): SummarizerPlugin | undefined {
  if (value === undefined) return undefined;
  const colon = value.indexOf(':');
  const provider = colon > 0 ? providerFactories[value.slice(0, colon)] : undefined;
  if (!provider || colon === value.length - 1) {
    throw new UsageError(`--summarizer takes PROVIDER:MODEL with a provider among ${Object.keys(providerFactories).join(', ')}, got ${JSON.stringify(value)}`);
  }
  return provider(baseURL).summarizer?.(value.slice(colon + 1), { timeoutMs: 120_000 });
}

/** One replay in `simulate`'s output: a run under one policy, window and rule. */
type Replay = SimulationResult & { file: string; rule: 'own' | 'iso' | 'trigger' };

/** One replay to run on every recorded run: a policy, a window and the trigger rule. */
type PlannedReplay = { policy: SimulationPolicy; window: number; rule: Replay['rule']; triggerTokens?: number };

/** A recorded run (or the demo) and the name it is reported under. */
type RecordedRun = { file: string; messages: Message[] };

/** The simulate command's options, read and checked before any replay runs. */
interface SimulateSettings {
  demo: boolean;
  windows: number[];
  /** `--max-output`, when given; else each window's default reserve ({@link outputReserve}). */
  maxOutputTokens: number | undefined;
  compare: boolean;
  iso: boolean;
  triggerTokens: number | undefined;
  usageSkew: number;
  plot: string | undefined;
  policies: SimulationPolicy[];
  priceModel: string;
  prices: TokenPrices | undefined;
  summarizerName: string | undefined;
  summarizer: SummarizerPlugin | undefined;
  summarizerPrices: TokenPrices | undefined;
}

function skewOption(value: string | undefined): number {
  if (value === undefined) return 1;
  const skew = Number(value);
  if (!/^\d*\.?\d+$/.test(value.trim()) || !(skew > 0 && skew <= 10))
    throw new UsageError(`--usage-skew must be a number above 0 and at most 10 (0.5: the provider reports half), got ${JSON.stringify(value)}`);
  return skew;
}

/** `--trigger-tokens`, which `--iso` excludes. */
function triggerOption(values: CommandValues, iso: boolean): number | undefined {
  const triggerText = text(values, 'trigger-tokens');
  const triggerTokens = triggerText === undefined ? undefined : tokensOption('trigger-tokens', triggerText);
  if (triggerTokens === 0) throw new UsageError('--trigger-tokens must be above zero');
  if (iso && triggerTokens !== undefined) throw new UsageError('--iso and --trigger-tokens both set the trigger: use one');
  return triggerTokens;
}

/** `--model`'s prices from the catalog, or the nearest entry's with a note. */
function pricesOption(values: CommandValues, io: CliIo): { priceModel: string; prices: TokenPrices | undefined } {
  const priceModel = text(values, 'model') ?? 'gpt-4o';
  const priced = nearestPrices(priceModel);
  const prices = priced?.prices;
  if (text(values, 'model') !== undefined && !prices) throw new UsageError(`no prices for ${JSON.stringify(priceModel)} in the model catalog; try gpt-4o, claude-sonnet-4-5 or gemini-2.5-pro`);
  if (priced && priced.pricedAs !== priceModel) io.stderr(`ctxkit: note: the model catalog lacks ${priceModel}; costs use the prices of ${priced.pricedAs}, the nearest entry\n`);
  return { priceModel, prices };
}

/**
 * The answer's room in a window: `--max-output` when given, else 4,096 tokens or half a smaller window
 * (the threshold's own rule for a small window, decision 0030), so `--window 1000` needs no `--max-output`.
 */
function outputReserve(settings: Pick<SimulateSettings, 'maxOutputTokens'>, window: number): number {
  return settings.maxOutputTokens ?? Math.min(4_096, Math.floor(window / 2));
}

function simulateSettings(files: readonly string[], values: CommandValues, io: CliIo): SimulateSettings {
  const demo = values.demo === true;
  if (!demo && files.length === 0) throw new UsageError('simulate takes one or more recorded runs (JSONL), or --demo');
  if (demo && files.length > 0) throw new UsageError(`simulate --demo replays its own session and takes no file; got ${files.join(', ')} (drop --demo to replay it)`);
  const windows = windowsOption(text(values, 'window'), 32_000);
  const maxOutputTokens = maxOutputOption(text(values, 'max-output'), windows);
  const compare = values.compare === true || demo;
  const iso = values.iso === true;
  if (iso && !compare) throw new UsageError("--iso compares the policies at ctxkit's threshold: use it with --compare");
  const triggerTokens = triggerOption(values, iso);
  const usageSkew = skewOption(text(values, 'usage-skew'));
  const plot = text(values, 'plot');
  // Checked before the replays, which can take minutes, rather than after them.
  if (plot !== undefined && !existsSync(dirname(resolve(plot)))) throw new UsageError(`--plot ${plot}: the folder ${dirname(resolve(plot))} does not exist`);
  const policies: SimulationPolicy[] = compare ? [...simulationPolicies] : [policyOf(text(values, 'policy') ?? 'ctxkit', simulationPolicies) as SimulationPolicy];
  const { priceModel, prices } = pricesOption(values, io);
  const summarizerName = text(values, 'summarizer');
  const summarizer = summarizerOption(summarizerName, summarizerURLOption(text(values, 'summarizer-url'), summarizerName));
  // A named summarizer is priced as its own model where the catalog lists it, else as the active model.
  const summarizerPrices = summarizerName ? nearestPrices(summarizerName)?.prices : undefined;
  return { demo, windows, maxOutputTokens, compare, iso, triggerTokens, usageSkew, plot, policies, priceModel, prices, summarizerName, summarizer, summarizerPrices };
}

/** Every policy in every window by its own rule (or the one trigger), and with `--iso` each peer again at ctxkit's threshold. */
function replayPlan(settings: SimulateSettings): PlannedReplay[] {
  const { windows, policies, triggerTokens, iso } = settings;
  const plan: PlannedReplay[] = [];
  for (const window of windows) {
    for (const policy of policies) {
      plan.push({ policy, window, rule: triggerTokens === undefined ? 'own' : 'trigger', ...(triggerTokens === undefined ? {} : { triggerTokens }) });
      if (iso && policy !== 'ctxkit' && policy !== 'none') plan.push({ policy, window, rule: 'iso', triggerTokens: defaultTrigger(window, outputReserve(settings, window)) });
    }
  }
  return plan;
}

/** Runs every planned replay on every run, in order, with a progress bar over all their steps. */
async function replayAll(runs: readonly RecordedRun[], plan: readonly PlannedReplay[], settings: SimulateSettings, check: boolean, io: CliIo): Promise<Replay[]> {
  const { usageSkew, prices, summarizerPrices, summarizer } = settings;
  const results: Replay[] = [];
  const bar = progressBar(io, 'simulating');
  const totalSteps = runs.reduce((sum, run) => sum + run.messages.filter((message) => message.role === 'assistant').length, 0) * plan.length;
  let doneSteps = 0;
  for (const run of runs) {
    for (const replay of plan) {
      const result = await simulateRun(run.messages, {
        window: replay.window,
        maxOutputTokens: outputReserve(settings, replay.window),
        policy: replay.policy,
        check,
        usageSkew,
        ...(replay.triggerTokens === undefined ? {} : { triggerTokens: replay.triggerTokens }),
        ...(prices ? { prices } : {}),
        ...(summarizerPrices ? { summarizerPrices } : {}),
        ...(summarizer ? { summarizer } : {}),
        onStep: () => bar.update(++doneSteps, totalSteps),
      });
      results.push({ ...result, file: run.file, rule: replay.rule });
    }
  }
  bar.done();
  return results;
}

/** Replays pooled per policy, window and rule: summed costs and counts, retention over all names. */
function pooled(results: readonly Replay[]) {
  const groups = new Map<string, Replay[]>();
  for (const result of results) {
    const key = `${result.window}|${result.policy}|${result.rule}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  return [...groups.values()].map((group) => {
    const sum = (pick: (result: Replay) => number) => group.reduce((total, result) => total + pick(result), 0);
    const used = sum((result) => result.retentionCounts.namesUsed);
    const farUsed = sum((result) => result.retentionCounts.farNamesUsed);
    const first = group[0]!;
    return {
      policy: first.policy,
      window: first.window,
      rule: first.rule,
      runs: group.length,
      compactions: sum((result) => result.compactions),
      refills: sum((result) => result.refills),
      overflows: sum((result) => result.overflows),
      summarizerCalls: sum((result) => result.summarizerCalls),
      totalInputTokens: sum((result) => result.totalInputTokens),
      retention: used === 0 ? 1 : sum((result) => result.retentionCounts.namesHeld) / used,
      farRetention: farUsed === 0 ? 1 : sum((result) => result.retentionCounts.farNamesHeld) / farUsed,
      ...(group.every((result) => result.estimatedCostUsd !== undefined) ? { estimatedCostUsd: sum((result) => result.estimatedCostUsd!) } : {}),
    };
  });
}

/** The replays pooled over the runs, one entry per policy, window and rule. */
type PooledReplay = ReturnType<typeof pooled>[number];

const formatShare = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
const formatCost = (costUsd: number | undefined) => (costUsd === undefined ? '-' : `$${costUsd.toFixed(2)}`);
const tableLabel = (result: { policy: string; rule: string; triggerTokens?: number }) =>
  result.rule === 'iso' ? `${result.policy} @ctxkit` : result.rule === 'trigger' ? `${result.policy} @${formatNumber(result.triggerTokens ?? 0)}` : result.policy;
const warningLabel = (result: { policy: string; rule: string }) => (result.rule === 'own' ? result.policy : `${result.policy} (${result.rule})`);

function replayRow(result: Replay, settings: SimulateSettings, check: boolean): string[] {
  const row = [
    basename(result.file),
    tableLabel(result),
    String(result.steps),
    String(result.compactions),
    String(result.refills),
    String(result.overflows),
    formatNumber(result.peakInputTokens),
    formatNumber(result.totalInputTokens),
    `${formatNumber(result.cachedPrefixTokens)} (${formatPercent(result.totalInputTokens ? result.cachedPrefixTokens / result.totalInputTokens : 0)})`,
    result.summarizerFailures > 0 ? `${result.summarizerCalls} (+${result.summarizerFailures} failed)` : String(result.summarizerCalls),
    formatShare(result.retention),
    formatShare(result.farRetention),
    formatCost(result.estimatedCostUsd),
  ];
  if (settings.windows.length > 1) row.splice(2, 0, formatNumber(result.window));
  if (check) row.push(String(result.invariantViolations));
  return row;
}

function printTotals(totals: readonly PooledReplay[], runCount: number, settings: SimulateSettings, io: CliIo): void {
  const several = settings.windows.length > 1;
  const totalRows = totals.map((total) => [
    tableLabel(total),
    ...(several ? [formatNumber(total.window)] : []),
    String(total.compactions),
    String(total.refills),
    String(total.overflows),
    String(total.summarizerCalls),
    formatShare(total.retention),
    formatShare(total.farRetention),
    formatCost(total.estimatedCostUsd),
  ]);
  io.stdout(`\nall ${runCount} runs\n${table(['policy', ...(several ? ['window'] : []), 'compactions', 'refills', 'overflows', 'summaries', 'retention', 'far', 'cost'], totalRows, 1)}\n`);
}

const policyLegend = (iso: boolean) =>
  '\nnone: sends everything. sliding-window: drops the oldest messages to fit. summarize-at-90: summarizes at 90% of the window.\n' +
  "observation-masking, codex, gemini-cli, opencode, anthropic-context-editing: the peers' own policies (docs/policies.md).\n" +
  `ctxkit: the default preset.${iso ? ' "@ctxkit": the peer at ctxkit\'s threshold.' : ''}\n` +
  'retention: share of the names the next move took from earlier in the run that the request held; far: those last seen over 4 messages back.\n' +
  'cached prefix: input identical to the start of the previous request. Cost includes every summary, priced as the model.\n';

function printTables(results: readonly Replay[], totals: readonly PooledReplay[], runCount: number, settings: SimulateSettings, check: boolean, io: CliIo): void {
  const { windows, summarizer, usageSkew, priceModel } = settings;
  const reserves = [...new Set(windows.map((window) => formatNumber(outputReserve(settings, window))))];
  const header = ['run', 'policy', 'steps', 'compactions', 'refills', 'overflows', 'peak input', 'input sent', 'cached prefix', 'summaries', 'retention', 'far', `cost (${priceModel})`];
  if (windows.length > 1) header.splice(2, 0, 'window');
  if (check) header.push('violations');
  const rows = results.map((result) => replayRow(result, settings, check));
  io.stdout(
    `window ${windows.map(formatNumber).join(', ')}, output reserve ${reserves.join(', ')}, summarizer ${summarizer ? summarizer.id : 'offline factual note (priced as the model)'}${usageSkew === 1 ? '' : `, usage reported ×${usageSkew}`}\n\n`,
  );
  io.stdout(`${table(header, rows, 2)}\n`);
  if (runCount > 1) printTotals(totals, runCount, settings, io);
  if (settings.compare) io.stdout(policyLegend(settings.iso));
}

function printJson(results: readonly Replay[], totals: readonly PooledReplay[], check: boolean, io: CliIo): void {
  const json = results.map(({ violations, outputTokens: _output, ...rest }) => ({ ...rest, ...(check ? { violations } : {}) }));
  io.stdout(`${JSON.stringify({ runs: json.map(({ file, ...rest }) => ({ file, ...rest })), totals }, null, 2)}\n`);
}

/** Each replay's invariant violations, and its first five warnings. */
function printProblems(results: readonly Replay[], io: CliIo): void {
  for (const result of results) for (const violation of result.violations) io.stderr(`${basename(result.file)} ${result.policy}: ${violation}\n`);
  for (const result of results) {
    for (const warning of result.warnings.slice(0, 5)) io.stderr(`${basename(result.file)} ${warningLabel(result)}: warning: ${warning}\n`);
    if (result.warnings.length > 5) io.stderr(`${basename(result.file)} ${warningLabel(result)}: … ${counted(result.warnings.length - 5, 'more warning')} (--json lists up to 20)\n`);
  }
}

async function writePlot(plot: string, libraries: PlotLibraries, totals: readonly PooledReplay[], runCount: number, priceModel: string): Promise<void> {
  const points = totals.filter((total) => total.estimatedCostUsd !== undefined && total.policy !== 'none');
  writeFileSync(
    plot,
    await retentionPlotSvg(
      points.map((total) => ({ ...total, costUsd: total.estimatedCostUsd! })),
      `Retention against cost, ${runCount} run${runCount === 1 ? '' : 's'}, priced as ${priceModel}`,
      libraries,
    ),
  );
}

/**
 * `ctxkit simulate FILE... [--window N[,N]] [--max-output N] [--policy P] [--compare [--iso]] [--trigger-tokens N]
 * [--usage-skew F] [--check] [--model ID] [--summarizer PROVIDER:MODEL [--summarizer-url URL]] [--plot FILE.svg] [--demo]`. Returns the exit code.
 */
export async function simulateCommand(files: readonly string[], values: CommandValues, io: CliIo): Promise<number> {
  const settings = simulateSettings(files, values, io);
  // Loaded before the replays, which can take minutes, so a missing library is said at once.
  const plotLibraries = settings.plot ? await loadPlotLibraries() : undefined;
  const check = values.check === true;
  const runs: RecordedRun[] = settings.demo
    ? [{ file: 'demo (synthetic coding session)', messages: demoSession() }]
    : files.map((file) => ({ file, messages: readTranscript(file, (warning) => io.stderr(`ctxkit: warning: ${warning}\n`)) }));
  const results = await replayAll(runs, replayPlan(settings), settings, check, io);
  const totals = pooled(results);
  if (settings.plot && plotLibraries) {
    await writePlot(settings.plot, plotLibraries, totals, runs.length, settings.priceModel);
    if (!values.json) io.stderr(`wrote ${settings.plot}\n`);
  }
  const { summarizer, summarizerName } = settings;
  // The named summarizer never answered: calls failed and none came back (the priced offline notes aside).
  const silent = summarizer !== undefined && results.some((result) => result.summarizerFailures > 0) && results.every((result) => result.summarizerCalls === result.offlineNotes);
  if (values.json) printJson(results, totals, check, io);
  else printTables(results, totals, runs.length, settings, check, io);
  printProblems(results, io);
  if (silent) {
    const failures = results.reduce((sum, result) => sum + result.summarizerFailures, 0);
    const reason = results.find((result) => result.summarizerError !== undefined)?.summarizerError;
    io.stderr(`ctxkit: the summarizer ${summarizerName} never answered (${counted(failures, 'failed call')}${reason ? `, the first: ${reason}` : ''}); the figures above use no summary\n`);
    return 1;
  }
  return 0;
}
