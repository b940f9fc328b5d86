import { basename } from 'node:path';
import { type Message, type SummarizerPlugin, textOf } from '@ctxkit/core';
import { anthropicProvider } from '@ctxkit/provider-anthropic';
import { geminiProvider } from '@ctxkit/provider-gemini';
import { llamacppProvider } from '@ctxkit/provider-llamacpp';
import { lmstudioProvider } from '@ctxkit/provider-lmstudio';
import { ollamaProvider } from '@ctxkit/provider-ollama';
import { openaiProvider } from '@ctxkit/provider-openai';
import { openrouterProvider } from '@ctxkit/provider-openrouter';
import { vllmProvider } from '@ctxkit/provider-vllm';
import { normalizeToolsInput, schemaBench } from '@ctxkit/schema';
import { budgetPolicy, halfWindowPolicy, thresholdBreakdown } from '@ctxkit/threshold';
import { createMeter, heuristicEstimator, type TiktokenEncoding, tiktokenCounter } from '@ctxkit/tokens';
import { demoSession } from '../demo-session.ts';
import { pricesFor } from '../prices.ts';
import { type SimulationPolicy, type SimulationResult, simulateRun, simulationPolicies } from '../simulate.ts';
import { type CliIo, formatNumber, formatPercent, progressBar, table } from './output.ts';
import { readJson, readText, readTranscript, tokensOption, UsageError } from './input.ts';
import { schemaBenchDefer } from './schema-bench-defer.ts';

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
  const window = tokensOption('window', text(values, 'window'));
  if (window === 0) throw new UsageError('--window must be above zero');
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
  const messages = readTranscript(file);
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
    exact: { total: exact.total, floor: floor(exact), floorParts: exact.floor, growing: exact.total - floor(exact), roles: exact.roles },
    estimate: { total: estimate.total, floor: floor(estimate), floorParts: estimate.floor, growing: estimate.total - floor(estimate), roles: estimate.roles },
    tools: [...byTool].map(([name, tool]) => ({ name, ...tool })).sort((a, b) => b.argumentTokens + b.resultTokens - (a.argumentTokens + a.resultTokens)),
  };
  if (values.json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const pair = (a: number, b: number) => [formatNumber(a), formatNumber(b)];
  io.stdout(`${basename(file)}: ${messages.length} messages, counted with ${encoding}${model ? ` for ${model}` : ''}\n\n`);
  io.stdout(
    `${table(
      ['part', 'exact', 'estimate'],
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
      ['role', 'messages', 'exact', 'estimate'],
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

/** `ctxkit simulate FILE... [--window N] [--max-output N] [--policy P] [--compare] [--check] [--demo]` */
export async function simulateCommand(files: readonly string[], values: CommandValues, io: CliIo): Promise<void> {
  const demo = values.demo === true;
  if (!demo && files.length === 0) throw new UsageError('simulate takes one or more recorded runs (JSONL), or --demo');
  const window = tokensOption('window', text(values, 'window'), 32_000);
  const maxOutputTokens = tokensOption('max-output', text(values, 'max-output'), 4_096);
  if (maxOutputTokens >= window) throw new UsageError(`--max-output (${maxOutputTokens}) must be smaller than --window (${window})`);
  const compare = values.compare === true || demo;
  const policies: SimulationPolicy[] = compare ? [...simulationPolicies] : [policyOf(text(values, 'policy') ?? 'ctxkit', simulationPolicies) as SimulationPolicy];
  const priceModel = text(values, 'model') ?? 'gpt-4o';
  const prices = pricesFor(priceModel);
  if (text(values, 'model') !== undefined && !prices) throw new UsageError(`no prices for ${JSON.stringify(priceModel)} in the model catalog; try gpt-4o, claude-sonnet-4-5 or gemini-2.5-pro`);
  const summarizer = summarizerOption(text(values, 'summarizer'));
  const runs: { file: string; messages: Message[] }[] = demo ? [{ file: 'demo (synthetic coding session)', messages: demoSession() }] : files.map((file) => ({ file, messages: readTranscript(file) }));
  const results: (SimulationResult & { file: string })[] = [];
  const bar = progressBar(io, 'simulating');
  const totalSteps = runs.reduce((sum, run) => sum + run.messages.filter((message) => message.role === 'assistant').length, 0) * policies.length;
  let doneSteps = 0;
  for (const run of runs) {
    for (const policy of policies) {
      const result = await simulateRun(run.messages, {
        window,
        maxOutputTokens,
        policy,
        check: values.check === true,
        ...(prices ? { prices } : {}),
        ...(summarizer ? { summarizer } : {}),
        onStep: () => bar.update(++doneSteps, totalSteps),
      });
      results.push({ ...result, file: run.file });
    }
  }
  bar.done();
  if (values.json) {
    const json = results.map(({ violations, outputTokens: _output, ...rest }) => ({ ...rest, ...(values.check ? { violations } : {}) }));
    io.stdout(`${JSON.stringify({ runs: json.map(({ file, ...rest }) => ({ file, ...rest })) }, null, 2)}\n`);
    return;
  }
  const header = ['run', 'policy', 'steps', 'compactions', 'refills', 'overflows', 'peak input', 'input sent', 'cached prefix', `cost (${priceModel})`];
  if (values.check) header.push('violations');
  const rows = results.map((result) => {
    const row = [
      basename(result.file),
      result.policy,
      String(result.steps),
      String(result.compactions),
      String(result.refills),
      String(result.overflows),
      formatNumber(result.peakInputTokens),
      formatNumber(result.totalInputTokens),
      `${formatNumber(result.cachedPrefixTokens)} (${formatPercent(result.totalInputTokens ? result.cachedPrefixTokens / result.totalInputTokens : 0)})`,
      result.estimatedCostUsd === undefined ? '-' : `$${result.estimatedCostUsd.toFixed(2)}`,
    ];
    if (values.check) row.push(String(result.invariantViolations));
    return row;
  });
  io.stdout(`window ${formatNumber(window)}, output reserve ${formatNumber(maxOutputTokens)}, summarizer ${summarizer ? summarizer.id : 'offline factual note'}\n\n`);
  io.stdout(`${table(header, rows, 2)}\n`);
  if (compare) {
    io.stdout(
      '\nnone: sends everything (overflows once the run outgrows the window). sliding-window: drops the oldest messages to fit.\n' +
        'summarize-at-90: summarizes everything at 90% of the window. ctxkit: the default preset (half-window threshold, tiers).\n' +
        'cached prefix: input tokens identical to the start of the previous request, which a prompt cache can serve.\n',
    );
  }
  for (const result of results) for (const violation of result.violations) io.stderr(`${basename(result.file)} ${result.policy}: ${violation}\n`);
}
