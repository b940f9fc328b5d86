import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { type Message, type SummarizerPlugin, textOf } from '@ctxkit/core';
import { anthropicProvider } from '@ctxkit/provider-anthropic';
import { geminiProvider } from '@ctxkit/provider-gemini';
import { llamacppProvider } from '@ctxkit/provider-llamacpp';
import { lmstudioProvider } from '@ctxkit/provider-lmstudio';
import { ollamaProvider } from '@ctxkit/provider-ollama';
import { openaiProvider } from '@ctxkit/provider-openai';
import { openrouterProvider } from '@ctxkit/provider-openrouter';
import { vllmProvider } from '@ctxkit/provider-vllm';
import { normalizeToolsInput } from '@ctxkit/schema';
import { schemaBench } from '@ctxkit/schema/bench';
import { budgetPolicy, halfWindowPolicy, thresholdBreakdown } from '@ctxkit/threshold';
import { createMeter, heuristicEstimator, type TiktokenEncoding, tiktokenCounter } from '@ctxkit/tokens';
import { demoSession } from '../demo-session.ts';
import { defaultTrigger, type SimulationPolicy, type SimulationResult, simulateRun, simulationPolicies } from '../simulate.ts';
import { retentionPlotSvg } from './plot.ts';
import { type CliIo, formatNumber, formatPercent, progressBar, table } from './output.ts';
import { readJson, readText, readTranscript, tokensOption, UsageError, windowOption } from './input.ts';
import { nearestPrices } from './nearest-prices.ts';
import { schemaBenchDefer } from './schema-bench-defer.ts';
import { tokenizerNote } from './tokenizer-note.ts';

/** Parsed options of one command (strings and booleans from node:util parseArgs). */
export type CommandValues = Record<string, string | boolean | undefined>;

const text = (values: CommandValues, name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);

function policyOf(name: string | undefined, allowed: readonly string[]): string {
  const policy = name ?? allowed[0]!;
  if (!allowed.includes(policy)) throw new UsageError(`unknown policy ${JSON.stringify(policy)}; expected one of ${allowed.join(', ')}`);
  return policy;
}

/** `ctxkit threshold --window N [--max-output N] [--policy half-window|budget]` */
export function thresholdCommand(values: CommandValues, io: CliIo): void {
  const window = windowOption(text(values, 'window'));
  const maxOutputTokens = tokensOption('max-output', text(values, 'max-output'), 0);
  const policy = policyOf(text(values, 'policy'), ['half-window', 'budget']);
  const decision = (policy === 'budget' ? budgetPolicy() : halfWindowPolicy()).decide({ contextWindow: window, maxOutputTokens });
  const bound = policy === 'budget' ? 'budget' : thresholdBreakdown(window, maxOutputTokens).bound;
  if (values.json) {
    io.stdout(`${JSON.stringify({ window, maxOutputTokens, policy, threshold: decision.threshold, target: decision.target, bound, reason: decision.reason }, null, 2)}\n`);
    return;
  }
  io.stdout(
    [
      `compact at  ${formatNumber(decision.threshold).padStart(9)} tokens  (when a request measures more than this)`,
      `target      ${formatNumber(decision.target).padStart(9)} tokens  (where a compaction aims)`,
      `policy      ${policy}, window ${formatNumber(window)}${maxOutputTokens ? `, max output ${formatNumber(maxOutputTokens)}` : ''}`,
      `why         ${decision.reason}`,
      '',
    ].join('\n'),
  );
}

function encodingFor(model: string | undefined): TiktokenEncoding {
  return model && /^(gpt-4(?!o|\.1)|gpt-3\.5|text-embedding-ada)/.test(model.replace(/^[^:]+:/, '')) ? 'cl100k_base' : 'o200k_base';
}

function readTools(path: string | undefined): unknown[] | undefined {
  if (path === undefined) return undefined;
  try {
    return [...normalizeToolsInput(readJson(path)).tools];
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path}: ${(error as Error).message.replace(/^\[ctxkit:[^\]]+\] /, '')}`);
  }
}

/** `ctxkit measure FILE [--model ID] [--tools TOOLS.json]` */
export async function measureCommand(files: readonly string[], values: CommandValues, io: CliIo): Promise<void> {
  if (files.length !== 1) throw new UsageError('measure takes one transcript file (JSONL, one message per line)');
  const file = files[0]!;
  const messages = readTranscript(file, (warning) => io.stderr(`ctxkit: warning: ${warning}\n`));
  const tools = readTools(text(values, 'tools'));
  const model = text(values, 'model');
  const encoding = encodingFor(model);
  // One counter serves the meter and the per-tool counts below, so the ranks load once.
  const counter = tiktokenCounter(encoding);
  const exactMeter = createMeter({ tokenizer: counter });
  await exactMeter.ready();
  const estimateMeter = createMeter({ estimator: heuristicEstimator() });
  const options = tools ? { tools } : {};
  const exact = exactMeter.breakdown(messages, options);
  const estimate = estimateMeter.breakdown(messages, options);
  const byTool = new Map<string, { calls: number; argumentTokens: number; resultTokens: number }>();
  const names = new Map<string, string>();
  const entry = (name: string) => byTool.get(name) ?? byTool.set(name, { calls: 0, argumentTokens: 0, resultTokens: 0 }).get(name)!;
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        names.set(call.id, call.name);
        const tool = entry(call.name);
        tool.calls += 1;
        tool.argumentTokens += counter.count(call.arguments);
      }
    } else if (message.role === 'tool') {
      entry(message.toolName ?? names.get(message.toolCallId) ?? '(unknown)').resultTokens += counter.count(textOf(message.content));
    }
  }
  const floor = (breakdown: typeof exact) => breakdown.floor.system + breakdown.floor.tools + breakdown.floor.request;
  const report = {
    file,
    messages: messages.length,
    model: model ?? null,
    encoding,
    tokenizer: tokenizerNote(encoding, model),
    exact: { total: exact.total, floor: floor(exact), floorParts: exact.floor, growing: exact.total - floor(exact), roles: exact.roles },
    estimate: { total: estimate.total, floor: floor(estimate), floorParts: estimate.floor, growing: estimate.total - floor(estimate), roles: estimate.roles },
    tools: [...byTool].map(([name, tool]) => ({ name, ...tool })).sort((a, b) => b.argumentTokens + b.resultTokens - (a.argumentTokens + a.resultTokens)),
  };
  if (values.json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const pair = (a: number, b: number) => [formatNumber(a), formatNumber(b)];
  const note = report.tokenizer;
  io.stdout(`${basename(file)}: ${messages.length} messages, ${note.says}\n\n`);
  io.stdout(
    `${table(
      ['part', note.column, 'estimate'],
      [
        ['fixed floor (resent every step)', ...pair(report.exact.floor, report.estimate.floor)],
        ['  system message', ...pair(exact.floor.system, estimate.floor.system)],
        ['  tool definitions', ...pair(exact.floor.tools, estimate.floor.tools)],
        ['  request framing', ...pair(exact.floor.request, estimate.floor.request)],
        ['growing part (what compaction shrinks)', ...pair(report.exact.growing, report.estimate.growing)],
        ['total', ...pair(exact.total, estimate.total)],
      ],
    )}\n\n`,
  );
  io.stdout(
    `${table(
      ['role', 'messages', note.column, 'estimate'],
      (['system', 'user', 'assistant', 'tool'] as const).map((role) => [role, String(exact.roles[role].messages), ...pair(exact.roles[role].tokens, estimate.roles[role].tokens)]),
    )}\n\n`,
  );
  if (report.tools.length > 0) {
    io.stdout(`${table(['tool', 'calls', 'argument tokens', 'result tokens'], report.tools.map((tool) => [tool.name, String(tool.calls), formatNumber(tool.argumentTokens), formatNumber(tool.resultTokens)]))}\n`);
  }
}

/** `ctxkit schema-bench TOOLS.json [--system FILE] [--compact] [--defer [--always-loaded a,b] [--queries FILE]]` */
export async function schemaBenchCommand(files: readonly string[], values: CommandValues, io: CliIo): Promise<void> {
  if (files.length !== 1) throw new UsageError('schema-bench takes one file: an MCP tools/list result, an array of tools, or an OpenAI request body');
  const path = files[0]!;
  let normalized: ReturnType<typeof normalizeToolsInput>;
  try {
    normalized = normalizeToolsInput(readJson(path));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path}: ${(error as Error).message.replace(/^\[ctxkit:[^\]]+\] /, '')}`);
  }
  const systemPath = text(values, 'system');
  const tokenizer = tiktokenCounter('o200k_base');
  await tokenizer.load();
  if (values.defer || text(values, 'queries')) {
    const system = systemPath ? readText(systemPath) : undefined;
    const deferValues = { system, alwaysLoaded: text(values, 'always-loaded'), queries: text(values, 'queries'), json: values.json === true };
    await schemaBenchDefer(normalized.tools, Object.fromEntries(Object.entries(deferValues).filter(([, value]) => value !== undefined)), tokenizer, io);
    return;
  }
  const report = await schemaBench({ tools: normalized.tools, tokenizer, ...(systemPath ? { system: readText(systemPath) } : {}) });
  if (values.compact) {
    io.stdout(`${JSON.stringify(normalized.wrap(report.compacted), null, 2)}\n`);
    return;
  }
  if (values.json) {
    const { compacted: _compacted, ...rest } = report;
    io.stdout(`${JSON.stringify(rest, null, 2)}\n`);
    return;
  }
  const rows = report.tools.map((tool) => [tool.name, formatNumber(tool.tokens), formatNumber(tool.compactedTokens), formatPercent(tool.savedFraction)]);
  io.stdout(`${table(['tool (most expensive first)', 'tokens', 'compacted', 'saved'], rows)}\n\n`);
  io.stdout(
    `${table(
      ['fixed floor', 'tokens', 'compacted', 'saved'],
      [
        ['system message', formatNumber(report.system.tokens), formatNumber(report.system.tokens), '0%'],
        [`tools (${report.tools.length})`, formatNumber(report.toolsTotal.tokens), formatNumber(report.toolsTotal.compactedTokens), formatPercent(report.toolsTotal.savedFraction)],
        ['floor, every step', formatNumber(report.floor.tokens), formatNumber(report.floor.compactedTokens), formatPercent(report.floor.savedFraction)],
      ],
    )}\n`,
  );
  if (report.warnings.length > 0) io.stderr(`${report.warnings.length} warning(s): ${report.warnings.slice(0, 3).map((warning) => JSON.stringify(warning)).join('; ')}\n`);
}

const providerFactories: Record<string, () => { summarizer?: (model: string, options?: { timeoutMs?: number }) => SummarizerPlugin }> = {
  openai: () => openaiProvider(),
  anthropic: () => anthropicProvider(),
  gemini: () => geminiProvider(),
  openrouter: () => openrouterProvider(),
  ollama: () => ollamaProvider(),
  lmstudio: () => lmstudioProvider(),
  vllm: () => vllmProvider(),
  llamacpp: () => llamacppProvider(),
};

function summarizerOption(value: string | undefined): SummarizerPlugin | undefined {
  if (value === undefined) return undefined;
  const colon = value.indexOf(':');
  const provider = colon > 0 ? providerFactories[value.slice(0, colon)] : undefined;
  if (!provider || colon === value.length - 1) {
    throw new UsageError(`--summarizer takes PROVIDER:MODEL with a provider among ${Object.keys(providerFactories).join(', ')}, got ${JSON.stringify(value)}`);
  }
  return provider().summarizer?.(value.slice(colon + 1), { timeoutMs: 120_000 });
}

/** One replay in `simulate`'s output: a run under one policy, window and rule. */
type Replay = SimulationResult & { file: string; rule: 'own' | 'iso' | 'trigger' };

function skewOption(value: string | undefined): number {
  if (value === undefined) return 1;
  const skew = Number(value);
  if (!/^\d*\.?\d+$/.test(value.trim()) || !(skew > 0 && skew <= 10)) throw new UsageError(`--usage-skew must be a number above 0 and at most 10 (0.5: the provider reports half), got ${JSON.stringify(value)}`);
  return skew;
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

/**
 * `ctxkit simulate FILE... [--window N[,N]] [--max-output N] [--policy P] [--compare [--iso]] [--trigger-tokens N]
 * [--usage-skew F] [--check] [--model ID] [--summarizer PROVIDER:MODEL] [--plot FILE.svg] [--demo]`. Returns the exit code.
 */
export async function simulateCommand(files: readonly string[], values: CommandValues, io: CliIo): Promise<number> {
  const demo = values.demo === true;
  if (!demo && files.length === 0) throw new UsageError('simulate takes one or more recorded runs (JSONL), or --demo');
  const windows = (text(values, 'window') ?? '32000').split(',').map((part) => windowOption(part.trim()));
  const maxOutputTokens = tokensOption('max-output', text(values, 'max-output'), 4_096);
  for (const window of windows) if (maxOutputTokens >= window) throw new UsageError(`--max-output (${maxOutputTokens}) must be smaller than --window (${window})`);
  const compare = values.compare === true || demo;
  const iso = values.iso === true;
  if (iso && !compare) throw new UsageError('--iso compares the policies at ctxkit\'s threshold: use it with --compare');
  const triggerText = text(values, 'trigger-tokens');
  const triggerTokens = triggerText === undefined ? undefined : tokensOption('trigger-tokens', triggerText);
  if (triggerTokens === 0) throw new UsageError('--trigger-tokens must be above zero');
  if (iso && triggerTokens !== undefined) throw new UsageError('--iso and --trigger-tokens both set the trigger: use one');
  const usageSkew = skewOption(text(values, 'usage-skew'));
  const plot = text(values, 'plot');
  // Checked before the replays, which can take minutes, rather than after them.
  if (plot !== undefined && !existsSync(dirname(resolve(plot)))) throw new UsageError(`--plot ${plot}: the folder ${dirname(resolve(plot))} does not exist`);
  const policies: SimulationPolicy[] = compare ? [...simulationPolicies] : [policyOf(text(values, 'policy') ?? 'ctxkit', simulationPolicies) as SimulationPolicy];
  const priceModel = text(values, 'model') ?? 'gpt-4o';
  const priced = nearestPrices(priceModel);
  const prices = priced?.prices;
  if (text(values, 'model') !== undefined && !prices) throw new UsageError(`no prices for ${JSON.stringify(priceModel)} in the model catalog; try gpt-4o, claude-sonnet-4-5 or gemini-2.5-pro`);
  if (priced && priced.pricedAs !== priceModel) io.stderr(`ctxkit: note: the model catalog lacks ${priceModel}; costs use the prices of ${priced.pricedAs}, the nearest entry\n`);
  const summarizerName = text(values, 'summarizer');
  const summarizer = summarizerOption(summarizerName);
  // A named summarizer is priced as its own model where the catalog lists it, else as the active model.
  const summarizerPrices = summarizerName ? nearestPrices(summarizerName)?.prices : undefined;
  const runs: { file: string; messages: Message[] }[] = demo
    ? [{ file: 'demo (synthetic coding session)', messages: demoSession() }]
    : files.map((file) => ({ file, messages: readTranscript(file, (warning) => io.stderr(`ctxkit: warning: ${warning}\n`)) }));
  const plan: { policy: SimulationPolicy; window: number; rule: Replay['rule']; triggerTokens?: number }[] = [];
  for (const window of windows) {
    for (const policy of policies) {
      plan.push({ policy, window, rule: triggerTokens === undefined ? 'own' : 'trigger', ...(triggerTokens === undefined ? {} : { triggerTokens }) });
      if (iso && policy !== 'ctxkit' && policy !== 'none') plan.push({ policy, window, rule: 'iso', triggerTokens: defaultTrigger(window, maxOutputTokens) });
    }
  }
  const results: Replay[] = [];
  const bar = progressBar(io, 'simulating');
  const totalSteps = runs.reduce((sum, run) => sum + run.messages.filter((message) => message.role === 'assistant').length, 0) * plan.length;
  let doneSteps = 0;
  for (const run of runs) {
    for (const replay of plan) {
      const result = await simulateRun(run.messages, {
        window: replay.window,
        maxOutputTokens,
        policy: replay.policy,
        check: values.check === true,
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
  const totals = pooled(results);
  if (plot) {
    const points = totals.filter((total) => total.estimatedCostUsd !== undefined && total.policy !== 'none');
    writeFileSync(plot, await retentionPlotSvg(points.map((total) => ({ ...total, costUsd: total.estimatedCostUsd! })), `Retention against cost, ${runs.length} run${runs.length === 1 ? '' : 's'}, priced as ${priceModel}`));
    if (!values.json) io.stderr(`wrote ${plot}\n`);
  }
  // The named summarizer never answered: calls failed and none came back (the priced offline notes aside).
  const silent = summarizer !== undefined && results.some((result) => result.summarizerFailures > 0) && results.every((result) => result.summarizerCalls === result.offlineNotes);
  if (values.json) {
    const json = results.map(({ violations, outputTokens: _output, ...rest }) => ({ ...rest, ...(values.check ? { violations } : {}) }));
    io.stdout(`${JSON.stringify({ runs: json.map(({ file, ...rest }) => ({ file, ...rest })), totals }, null, 2)}\n`);
  } else {
    const label = (result: { policy: string; rule: string; triggerTokens?: number }) => (result.rule === 'iso' ? `${result.policy} @ctxkit` : result.rule === 'trigger' ? `${result.policy} @${formatNumber(result.triggerTokens ?? 0)}` : result.policy);
    const header = ['run', 'policy', 'steps', 'compactions', 'refills', 'overflows', 'peak input', 'input sent', 'cached prefix', 'summaries', 'retention', 'far', `cost (${priceModel})`];
    if (windows.length > 1) header.splice(2, 0, 'window');
    if (values.check) header.push('violations');
    const rows = results.map((result) => {
      const row = [
        basename(result.file),
        label(result),
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
        result.estimatedCostUsd === undefined ? '-' : `$${result.estimatedCostUsd.toFixed(2)}`,
      ];
      if (windows.length > 1) row.splice(2, 0, formatNumber(result.window));
      if (values.check) row.push(String(result.invariantViolations));
      return row;
    });
    io.stdout(`window ${windows.map(formatNumber).join(', ')}, output reserve ${formatNumber(maxOutputTokens)}, summarizer ${summarizer ? summarizer.id : 'offline factual note (priced as the model)'}${usageSkew === 1 ? '' : `, usage reported ×${usageSkew}`}\n\n`);
    io.stdout(`${table(header, rows, 2)}\n`);
    if (runs.length > 1) {
      const totalRows = totals.map((total) => [
        label(total),
        ...(windows.length > 1 ? [formatNumber(total.window)] : []),
        String(total.compactions),
        String(total.refills),
        String(total.overflows),
        String(total.summarizerCalls),
        formatShare(total.retention),
        formatShare(total.farRetention),
        total.estimatedCostUsd === undefined ? '-' : `$${total.estimatedCostUsd.toFixed(2)}`,
      ]);
      io.stdout(`\nall ${runs.length} runs\n${table(['policy', ...(windows.length > 1 ? ['window'] : []), 'compactions', 'refills', 'overflows', 'summaries', 'retention', 'far', 'cost'], totalRows, 1)}\n`);
    }
    if (compare) {
      io.stdout(
        '\nnone: sends everything. sliding-window: drops the oldest messages to fit. summarize-at-90: summarizes at 90% of the window.\n' +
          'observation-masking, codex, gemini-cli, opencode, anthropic-context-editing: the peers\' own policies (docs/policies.md).\n' +
          `ctxkit: the default preset.${iso ? ' "@ctxkit": the peer at ctxkit\'s threshold.' : ''}\n` +
          'retention: share of the names the next move took from earlier in the run that the request held; far: those last seen over 4 messages back.\n' +
          'cached prefix: input identical to the start of the previous request. Cost includes every summary, priced as the model.\n',
      );
    }
  }
  for (const result of results) for (const violation of result.violations) io.stderr(`${basename(result.file)} ${result.policy}: ${violation}\n`);
  for (const result of results) {
    for (const warning of result.warnings.slice(0, 5)) io.stderr(`${basename(result.file)} ${label2(result)}: warning: ${warning}\n`);
    if (result.warnings.length > 5) io.stderr(`${basename(result.file)} ${label2(result)}: … ${result.warnings.length - 5} more warnings (--json lists up to 20)\n`);
  }
  if (silent) {
    io.stderr(`ctxkit: the summarizer ${summarizerName} never answered (${results.reduce((sum, result) => sum + result.summarizerFailures, 0)} failed calls); the figures above use no summary\n`);
    return 1;
  }
  return 0;
}

const label2 = (result: { policy: string; rule: string }) => (result.rule === 'own' ? result.policy : `${result.policy} (${result.rule})`);
const formatShare = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
