import { CtxkitError } from '@ctxkit/core';
import { type CompactToolsOptions, compactTools } from '../compact-tools.ts';

/**
 * What a model chose: a tool name, `null` for "no tool" (it answered in text), or the name with the
 * arguments it sent (an object, or the JSON text as the API returned it).
 */
export type ToolChoice = string | null | undefined | { name: string | null | undefined; arguments?: unknown };

/** One prompt to put to the model with both tool lists. */
export interface ToolChoiceCase<Prompt = string, Tool = unknown> {
  prompt: Prompt;
  /** A label for reports. @default the case's index */
  id?: string;
  /** The tool the model should pick (`null`: none); with it, the report also gives accuracy. */
  expected?: string | null;
  /** Tools for this case only; otherwise the comparison's `tools`. */
  tools?: readonly Tool[];
}

/** The answer of one side of a case: what was chosen, or the error the model call threw. */
export type ToolChoiceAnswer = { name: string | null; arguments?: unknown } | { error: string };

/** One case, answered with the full and the compacted tools. */
export interface ToolChoiceCaseResult<Prompt = string> {
  index: number;
  id: string;
  prompt: Prompt;
  full: ToolChoiceAnswer;
  compacted: ToolChoiceAnswer;
  /** Same tool chosen (or both chose none); undefined when either call failed. */
  agree: boolean | undefined;
  /** Same arguments (compared as parsed JSON); undefined unless both answers carry arguments. */
  argumentsAgree: boolean | undefined;
  expected?: string | null;
}

/** What {@link compareToolChoice} found. */
export interface ToolChoiceComparison<Prompt = string> {
  cases: ToolChoiceCaseResult<Prompt>[];
  /** Cases where both calls answered. */
  compared: number;
  agreed: number;
  /** agreed ÷ compared; undefined when nothing could be compared. */
  agreement: number | undefined;
  /** Cases where the two tool lists led to different choices: the ones to read. */
  differing: ToolChoiceCaseResult<Prompt>[];
  /** Cases where a model call threw; left out of the agreement. */
  failed: ToolChoiceCaseResult<Prompt>[];
  /** Among cases where both answers carry arguments: how many sent the same arguments. */
  argumentsCompared: number;
  argumentsAgreed: number;
  /** Share of cases with `expected` that each side got right; undefined when no case has `expected`. */
  accuracy: { full: number; compacted: number; cases: number } | undefined;
}

/** Options for {@link compareToolChoice}. */
export interface CompareToolChoiceOptions<Prompt = string, Tool = unknown> {
  cases: readonly ToolChoiceCase<Prompt, Tool>[];
  /** The model call: given tools and a prompt, what did the model choose? Ask at temperature 0 for a fair comparison. */
  choose: (tools: readonly Tool[], prompt: Prompt) => ToolChoice | Promise<ToolChoice>;
  /** The full tool list (unless every case brings its own). */
  tools?: readonly Tool[];
  /** How to compact the tools. @default compactTools defaults */
  compaction?: CompactToolsOptions;
  /**
   * The compacted list to compare against, instead of compacting `tools` here; pass the full list
   * itself to measure the model's own run-to-run noise (an A/A run).
   */
  compacted?: readonly Tool[];
  /** Model calls in flight at once. @default 1 */
  concurrency?: number;
  signal?: AbortSignal;
}

function answerOf(choice: ToolChoice): ToolChoiceAnswer {
  if (choice === null || choice === undefined) return { name: null };
  if (typeof choice === 'string') return { name: choice };
  const name = typeof choice.name === 'string' ? choice.name : null;
  return 'arguments' in choice && choice.arguments !== undefined ? { name, arguments: choice.arguments } : { name };
}

function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function sameJson(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  if (typeof left === 'object' && typeof right === 'object' && left !== null && right !== null && !Array.isArray(left) && !Array.isArray(right)) {
    const leftKeys = Object.keys(left);
    return (
      leftKeys.length === Object.keys(right).length && leftKeys.every((key) => Object.hasOwn(right, key) && sameJson((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]))
    );
  }
  return false;
}

function abortError(signal: AbortSignal): CtxkitError {
  return new CtxkitError({ code: 'ABORTED', source: 'schema', message: 'compareToolChoice was aborted', cause: signal.reason });
}

/**
 * A/B harness for tool choice: puts every case to the model twice, with the full and with the
 * compacted tools, and reports how often the same tool was chosen, which cases differ, and (with
 * `expected`) which side was right. Trimming a description can remove the sentence that told the
 * model when to use a tool; this measures that instead of assuming it. A model call that throws is
 * recorded on its case and left out of the agreement, not rethrown.
 *
 * Gotcha: models are not deterministic; run an A/A comparison (`compacted: tools`) to see how much
 * disagreement is noise before blaming compaction.
 * @throws CtxkitError INVALID_ARGUMENT for a case without tools or a bad `concurrency`; ABORTED when `signal` aborts
 * @example
 * ```ts
 * const report = await compareToolChoice({
 *   tools,
 *   cases: [{ prompt: 'Open an issue about the crash', expected: 'issue_write' }],
 *   compaction: { trimToolDescriptions: true },
 *   choose: async (tools, prompt) => {
 *     const response = await openai.chat.completions.create({ model, temperature: 0, tools, messages: [{ role: 'user', content: prompt }] });
 *     const call = response.choices[0]?.message.tool_calls?.[0];
 *     return call ? { name: call.function.name, arguments: call.function.arguments } : null;
 *   },
 * });
 * console.log(report.agreement, report.differing.map((result) => result.id));
 * ```
 */
export async function compareToolChoice<Prompt = string, Tool = unknown>(options: CompareToolChoiceOptions<Prompt, Tool>): Promise<ToolChoiceComparison<Prompt>> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: `concurrency must be a whole number of 1 or more, got ${concurrency}` });
  }
  if (!Array.isArray(options.cases)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: 'compareToolChoice needs cases as an array' });
  }
  const compactedShared = options.compacted ?? (options.tools ? (compactTools(options.tools as readonly Record<string, unknown>[], options.compaction) as Tool[]) : undefined);
  const plans = options.cases.map((testCase, index) => {
    const full = testCase.tools ?? options.tools;
    if (!full) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: `case ${index} has no tools: pass tools to compareToolChoice or on the case` });
    }
    const compacted = testCase.tools ? (compactTools(testCase.tools as readonly Record<string, unknown>[], options.compaction) as Tool[]) : compactedShared!;
    return { testCase, index, full, compacted };
  });

  const ask = async (tools: readonly Tool[], prompt: Prompt): Promise<ToolChoiceAnswer> => {
    try {
      return answerOf(await options.choose(tools, prompt));
    } catch (error) {
      if (options.signal?.aborted) throw abortError(options.signal);
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
  const results: ToolChoiceCaseResult<Prompt>[] = new Array(plans.length);
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      if (options.signal?.aborted) throw abortError(options.signal);
      const plan = plans[next++]!;
      const full = await ask(plan.full, plan.testCase.prompt);
      if (options.signal?.aborted) throw abortError(options.signal);
      const compacted = await ask(plan.compacted, plan.testCase.prompt);
      const both = 'name' in full && 'name' in compacted ? ([full, compacted] as const) : undefined;
      const withArguments = both && both[0].arguments !== undefined && both[1].arguments !== undefined;
      results[plan.index] = {
        index: plan.index,
        id: plan.testCase.id ?? String(plan.index),
        prompt: plan.testCase.prompt,
        full,
        compacted,
        agree: both ? both[0].name === both[1].name : undefined,
        argumentsAgree: withArguments ? sameJson(parsedArguments(both[0].arguments), parsedArguments(both[1].arguments)) : undefined,
        ...(plan.testCase.expected === undefined ? {} : { expected: plan.testCase.expected }),
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(plans.length, 1)) }, worker));

  const compared = results.filter((result) => result.agree !== undefined);
  const agreed = compared.filter((result) => result.agree).length;
  const withArguments = results.filter((result) => result.argumentsAgree !== undefined);
  const graded = compared.filter((result) => result.expected !== undefined);
  const right = (answer: ToolChoiceAnswer, expected: string | null | undefined) => 'name' in answer && answer.name === expected;
  return {
    cases: results,
    compared: compared.length,
    agreed,
    agreement: compared.length === 0 ? undefined : agreed / compared.length,
    differing: compared.filter((result) => !result.agree),
    failed: results.filter((result) => result.agree === undefined),
    argumentsCompared: withArguments.length,
    argumentsAgreed: withArguments.filter((result) => result.argumentsAgree).length,
    accuracy:
      graded.length === 0
        ? undefined
        : {
            full: graded.filter((result) => right(result.full, result.expected)).length / graded.length,
            compacted: graded.filter((result) => right(result.compacted, result.expected)).length / graded.length,
            cases: graded.length,
          },
  };
}
