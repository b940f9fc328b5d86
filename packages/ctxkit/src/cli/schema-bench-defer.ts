import { createToolSearch, type ToolSearch } from '@ctxkit/schema';
import { deferBench, measureRetrieval, type RetrievalQuery } from '@ctxkit/schema/bench';
import type { TokenizerPlugin } from '@ctxkit/core';
import { readJson, UsageError } from './input.ts';
import { type CliIo, counted, formatNumber, formatPercent, table } from './output.ts';

/**
 * The request lists of a queries file: an array of `{ query, tools }`, or MetaTool's `{ queries, multiToolQueries }`. Every
 * request names at least one tool, each among the tools searched: a misnamed one would be scored as a miss without a word.
 */
function readQueries(path: string, index: ToolSearch<unknown>, io: CliIo): [string, RetrievalQuery[]][] {
  const data = readJson(path, (warning) => io.stderr(`ctxkit: warning: ${warning}\n`));
  const valid = (list: unknown, field: string): RetrievalQuery[] => {
    if (!Array.isArray(list)) throw new UsageError(`${path}: ${field} must be an array of { query, tools }`);
    // No request, or one with no words, would print 0% as if it were a measured figure.
    if (list.length === 0) throw new UsageError(`${path}: ${field === 'entry' ? 'the array' : field} holds no requests; expected at least one { query, tools }`);
    list.forEach((entry: unknown, position) => {
      const item = entry as Partial<RetrievalQuery> | null;
      if (typeof item?.query === 'string' && item.query.trim() === '') throw new UsageError(`${path}: ${field}[${position}] has an empty query`);
      if (typeof item?.query !== 'string' || !Array.isArray(item.tools) || item.tools.length === 0 || !item.tools.every((name) => typeof name === 'string')) {
        throw new UsageError(`${path}: ${field}[${position}] needs { query: string, tools: string[] } with at least one tool`);
      }
      const unknown = item.tools.find((name) => index.get(name) === undefined);
      if (unknown !== undefined) throw new UsageError(`${path}: ${field}[${position}] names ${JSON.stringify(unknown)}, which is not among the ${counted(index.size, 'tool')} searched`);
    });
    return list as RetrievalQuery[];
  };
  if (Array.isArray(data)) return [['requests', valid(data, 'entry')]];
  const record = (data ?? {}) as Record<string, unknown>;
  const lists: [string, RetrievalQuery[]][] = [];
  if (record.queries !== undefined) lists.push(['single-tool requests', valid(record.queries, 'queries')]);
  if (record.multiToolQueries !== undefined) lists.push(['multi-tool requests', valid(record.multiToolQueries, 'multiToolQueries')]);
  if (lists.length === 0) throw new UsageError(`${path}: expected an array of { query, tools } or an object with queries / multiToolQueries`);
  return lists;
}

/** `ctxkit schema-bench TOOLS.json --defer [--always-loaded a,b] [--queries FILE]`: the floor with tools deferred, and retrieval. */
export async function schemaBenchDefer(
  tools: readonly unknown[],
  values: { system?: string; alwaysLoaded?: string; queries?: string; json?: boolean },
  tokenizer: TokenizerPlugin,
  io: CliIo,
): Promise<void> {
  const alwaysLoaded = values.alwaysLoaded
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  let report: Awaited<ReturnType<typeof deferBench>>;
  try {
    report = await deferBench({ tools, tokenizer, ...(values.system === undefined ? {} : { system: values.system }), defer: alwaysLoaded ? { alwaysLoaded } : {} });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^\[ctxkit:[^\]]+\] /, ''));
  }
  const retrieval = values.queries
    ? (() => {
        const index = createToolSearch(tools);
        return readQueries(values.queries, index, io).map(([label, queries]) => {
          const { misses: _misses, ...score } = measureRetrieval(index, queries, { k: 5 });
          return { label, ...score };
        });
      })()
    : [];
  if (values.json) {
    io.stdout(`${JSON.stringify({ floor: report, retrieval }, null, 2)}\n`);
    return;
  }
  io.stdout(
    `${table(
      ['fixed floor, every step', 'tokens', 'saved'],
      [
        [`all ${counted(report.tools, 'tool')} sent`, formatNumber(report.before), '0%'],
        [`${report.deferred} deferred behind search_tools`, formatNumber(report.after), formatPercent(report.savedFraction)],
        ['deferred, the rest compacted', formatNumber(report.afterCompacted), formatPercent(report.before === 0 ? 0 : 1 - report.afterCompacted / report.before)],
      ],
    )}\n`,
  );
  if (retrieval.length > 0) {
    io.stdout(
      `\n${table(
        [`tool search over ${counted(tools.length, 'tool')}`, 'requests', 'top-1', 'top-5', 'all in top-5'],
        retrieval.map((score) => [score.label, formatNumber(score.queries), formatPercent(score.top1), formatPercent(score.topK), formatPercent(score.allInTopK)]),
      )}\n`,
    );
  }
}
