import { basename } from 'node:path';
import { textOf } from '@ctxkit/core';
import { normalizeToolsInput } from '@ctxkit/schema';
import { schemaBench } from '@ctxkit/schema/bench';
import { budgetPolicy, halfWindowPolicy, thresholdBreakdown } from '@ctxkit/threshold';
import { createMeter, heuristicEstimator, type TiktokenEncoding, tiktokenCounter } from '@ctxkit/tokens';
import { type CliIo, counted, formatNumber, formatPercent, noun, table } from './output.ts';
import { readJson, readText, readTranscript, tokensOption, UsageError, windowOption } from './input.ts';
import { schemaBenchDefer } from './schema-bench-defer.ts';
import { tokenizerNote } from './tokenizer-note.ts';

/** Parsed options of one command (strings and booleans from node:util parseArgs). */
export type CommandValues = Record<string, string | boolean | undefined>;

/** The value of a string option, or undefined when it was not given (or given as a flag). */
export const text = (values: CommandValues, name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);

/** The policy named (the first allowed one when none is), or a usage error listing the choices. */
export function policyOf(name: string | undefined, allowed: readonly string[]): string {
  const policy = name ?? allowed[0]!;
  if (!allowed.includes(policy)) throw new UsageError(`unknown policy ${JSON.stringify(policy)}; expected one of ${allowed.join(', ')}`);
  return policy;
}

/**
 * The fewest tokens a request can take: one message of one token, framed as OpenAI's chat format counts
 * it (3 per message, 1 for the role, 3 priming the reply), as the simulated provider counts too.
 */
export const smallestRequestTokens = 8;

/** Whether a threshold lets the smallest request through uncompacted and leaves the answer at least a token. */
const usable = (window: number, threshold: number) => threshold >= smallestRequestTokens && window - threshold >= 1;

/**
 * A window too small to hold the smallest request beside an answer is refused, naming the smallest
 * window that does under the same policy and output budget: a threshold of 1 with nothing left for the
 * answer is no answer (decision 0105).
 */
function checkUsableWindow(window: number, maxOutputTokens: number, policy: string, decide: (window: number) => { threshold: number }): void {
  if (usable(window, decide(window).threshold)) return;
  let smallest = window + 1;
  while (!usable(smallest, decide(smallest).threshold)) smallest += 1;
  const given = `${policy === 'budget' ? ' --policy budget' : ''}${maxOutputTokens > 0 ? ` --max-output ${maxOutputTokens}` : ''}`;
  throw new UsageError(
    `--window ${window} cannot hold a request and its answer: the smallest request is ${smallestRequestTokens} tokens (one message of one token, with the chat framing) and the answer needs at least 1; the smallest usable window${given ? ` with${given}` : ''} is ${formatNumber(smallest)} tokens`,
  );
}

/** `ctxkit threshold --window N [--max-output N] [--policy half-window|budget]` */
export function thresholdCommand(values: CommandValues, io: CliIo): void {
  const window = windowOption(text(values, 'window'));
  const maxOutputTokens = tokensOption('max-output', text(values, 'max-output'), 0);
  const policy = policyOf(text(values, 'policy'), ['half-window', 'budget']);
  const thresholdPolicy = policy === 'budget' ? budgetPolicy() : halfWindowPolicy();
  checkUsableWindow(window, maxOutputTokens, policy, (contextWindow) => thresholdPolicy.decide({ contextWindow, maxOutputTokens }));
  const decision = thresholdPolicy.decide({ contextWindow: window, maxOutputTokens });
  const bound = policy === 'budget' ? 'budget' : thresholdBreakdown(window, maxOutputTokens).bound;
  if (values.json) {
    io.stdout(`${JSON.stringify({ window, maxOutputTokens, policy, threshold: decision.threshold, target: decision.target, bound, reason: decision.reason }, null, 2)}\n`);
    return;
  }
  io.stdout(
    [
      `compact at  ${formatNumber(decision.threshold).padStart(9)} ${noun(decision.threshold, 'token').padEnd(6)}  (when a request measures more than this)`,
      `target      ${formatNumber(decision.target).padStart(9)} ${noun(decision.target, 'token').padEnd(6)}  (where a compaction aims)`,
      `policy      ${policy}, window ${formatNumber(window)}${maxOutputTokens ? `, max output ${formatNumber(maxOutputTokens)}` : ''}`,
      `why         ${decision.reason}`,
      '',
    ].join('\n'),
  );
}

function encodingFor(model: string | undefined): TiktokenEncoding {
  return model && /^(gpt-4(?!o|\.1)|gpt-3\.5|text-embedding-ada)/.test(model.replace(/^[^:]+:/, '')) ? 'cl100k_base' : 'o200k_base';
}

/** Where a file's warnings (bytes that are not UTF-8, arguments that are not JSON) go: stderr, as `ctxkit: warning: …`. */
const warnTo = (io: CliIo) => (warning: string) => io.stderr(`ctxkit: warning: ${warning}\n`);

/** The tools in a JSON file, found by `normalizeToolsInput`; what it rejects becomes a usage error naming the file. */
function readToolsFile(path: string, io: CliIo): ReturnType<typeof normalizeToolsInput> {
  try {
    return normalizeToolsInput(readJson(path, warnTo(io)));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path}: ${(error as Error).message.replace(/^\[ctxkit:[^\]]+\] /, '')}`);
  }
}

function readTools(path: string | undefined, io: CliIo): unknown[] | undefined {
  return path === undefined ? undefined : [...readToolsFile(path, io).tools];
}

/** `ctxkit measure FILE [--model ID] [--tools TOOLS.json]` */
export async function measureCommand(files: readonly string[], values: CommandValues, io: CliIo): Promise<void> {
  if (files.length !== 1) throw new UsageError('measure takes one transcript file (JSONL, one message per line)');
  const file = files[0]!;
  const messages = readTranscript(file, warnTo(io));
  const tools = readTools(text(values, 'tools'), io);
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
  io.stdout(`${basename(file)}: ${counted(messages.length, 'message')}, ${note.says}\n\n`);
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
    io.stdout(
      `${table(
        ['tool', 'calls', 'argument tokens', 'result tokens'],
        report.tools.map((tool) => [tool.name, String(tool.calls), formatNumber(tool.argumentTokens), formatNumber(tool.resultTokens)]),
      )}\n`,
    );
  }
}

/** `ctxkit schema-bench TOOLS.json [--system FILE] [--compact] [--defer [--always-loaded a,b] [--queries FILE]]` */
export async function schemaBenchCommand(files: readonly string[], values: CommandValues, io: CliIo): Promise<void> {
  if (files.length !== 1) throw new UsageError('schema-bench takes one file: an MCP tools/list result, an array of tools, or an OpenAI request body');
  const path = files[0]!;
  const normalized = readToolsFile(path, io);
  if (normalized.tools.length === 0) throw new UsageError(`${path}: holds no tools; expected at least one tool definition to measure`);
  const systemPath = text(values, 'system');
  const tokenizer = tiktokenCounter('o200k_base');
  await tokenizer.load();
  // --queries and --always-loaded only mean something for deferred tools: either implies --defer.
  const deferOption = ['defer', 'queries', 'always-loaded'].find((name) => values[name] !== undefined && values[name] !== false);
  if (values.compact && deferOption)
    throw new UsageError(
      `schema-bench --compact prints the compacted tools, --${deferOption} measures deferring them: run one at a time (the --defer table's "deferred, the rest compacted" row counts compaction too)`,
    );
  if (deferOption) {
    const system = systemPath ? readText(systemPath, warnTo(io)) : undefined;
    const deferValues = { system, alwaysLoaded: text(values, 'always-loaded'), queries: text(values, 'queries'), json: values.json === true };
    await schemaBenchDefer(normalized.tools, Object.fromEntries(Object.entries(deferValues).filter(([, value]) => value !== undefined)), tokenizer, io);
    return;
  }
  const report = await schemaBench({ tools: normalized.tools, tokenizer, ...(systemPath ? { system: readText(systemPath, warnTo(io)) } : {}) });
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
  if (report.warnings.length > 0)
    io.stderr(
      `${counted(report.warnings.length, 'warning')}: ${report.warnings
        .slice(0, 3)
        .map((warning) => JSON.stringify(warning))
        .join('; ')}\n`,
    );
}
