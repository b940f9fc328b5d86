import { heuristicEstimator } from '@ctxkit/tokens';
import { contextWindowErrorText } from './context-window-error.ts';
import type { WebllmChatCompletion, WebllmChatRequest, WebllmEngine } from './webllm-engine.ts';

/** One request the double answered (or rejected), for tests to inspect. */
export interface EngineDoubleCall {
  request: WebllmChatRequest;
  /** Prompt tokens as the double counted them, chat template included. */
  promptTokens: number;
  /** What it answered, or undefined when it threw or was interrupted. */
  answer?: string;
  finishReason?: 'stop' | 'length' | 'abort';
  error?: Error;
}

/** Options for {@link createEngineDouble}. */
export interface EngineDoubleOptions {
  /** The window it enforces, prompt and answer together. @default 4_096 */
  contextWindow?: number;
  /** Counts a text as the double's "model" does. @default heuristicEstimator() from @ctxkit/tokens */
  countText?: (text: string) => number;
  /** Tokens the chat template adds to each message (Qwen's `<|im_start|>role … <|im_end|>`). @default 5 */
  tokensPerMessage?: number;
  /** The answer; the default writes a structured summary from what the prompt shows. */
  respond?: (request: WebllmChatRequest, call: { index: number; promptTokens: number }) => string | Promise<string>;
  /** Never answers the calls this picks, until `interruptGenerate()` (then `finish_reason: 'abort'`). */
  hang?: (request: WebllmChatRequest, index: number) => boolean;
  /** With `hang`: ignore `interruptGenerate()` too, as an engine whose device was lost would. @default false */
  ignoreInterrupt?: boolean;
  /** Time each answer takes, so a demo's progress can be seen. @default 0 */
  latencyMs?: number;
}

/** An engine double: the calls it saw, interrupts and unloads. */
export interface EngineDouble extends WebllmEngine {
  readonly calls: EngineDoubleCall[];
  readonly interrupts: number;
  readonly unloaded: boolean;
  interruptGenerate(): void;
  unload(): Promise<void>;
}

const dataLine = /^<<<(?:end )?ctxkit-data [0-9a-f]+>>>$/;
const messageLabel = /^\[message (\d+) · ([^\]]+)\]/;
const rangeLine = /messages (\d+) to (\d+)/g;

/** The lines between the first pair of data markers that follows a line containing `title`. */
function framed(text: string, title: RegExp): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => title.test(line));
  if (start < 0) return [];
  const open = lines.findIndex((line, index) => index > start && dataLine.test(line));
  const close = lines.findIndex((line, index) => index > open && dataLine.test(line));
  return open < 0 || close < 0 ? [] : lines.slice(open + 1, close);
}

/**
 * The default answer: a summary in ctxkit's sections that keeps the task's opening and names the
 * messages it covered as ranges (`messages 3 to 41`), merging the ranges of part summaries in the order
 * given, so a test can see the merge order in the final summary.
 */
function structuredAnswer(request: WebllmChatRequest): string {
  const prompt = request.messages.map((message) => message.content).join('\n');
  // A model restates the task; the double keeps its opening, which is where tasks state their point.
  const taskText = framed(prompt, /^The task the agent was given/)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const task = taskText === '' ? 'none' : taskText.slice(0, 600);
  const data = framed(prompt, /^(?:The messages to summarize|Part \d+ of \d+ of the messages|Summaries of consecutive parts)/);
  const ranges: [number, number][] = [];
  const tools = new Set<string>();
  const add = (first: number, last: number) => {
    const previous = ranges.at(-1);
    // Consecutive or overlapping (a message cut into pieces across chunks) ranges join; out of order, they stay apart.
    if (previous && first >= previous[0] && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else ranges.push([first, last]);
  };
  for (const line of data) {
    const label = messageLabel.exec(line);
    if (label) {
      const index = Number(label[1]);
      add(index, index);
      const tool = /tool result \(([^)]+)\)/.exec(label[2]!);
      if (tool) tools.add(tool[1]!);
      continue;
    }
    if (line.startsWith('- covered ')) for (const match of line.matchAll(rangeLine)) add(Number(match[1]), Number(match[2]));
    if (line.startsWith('- tools used: ')) for (const name of line.slice('- tools used: '.length).split(', ')) if (name !== 'none') tools.add(name);
  }
  return [
    '## Task',
    task,
    '## Constraints from the user',
    'none',
    '## Done',
    `- covered ${ranges.map(([first, last]) => `messages ${first} to ${last}`).join('; ') || 'nothing'}`,
    `- tools used: ${[...tools].join(', ') || 'none'}`,
    '## Files touched',
    'none',
    '## Decisions',
    'none',
    '## Errors',
    'none',
    '## Open questions',
    'none',
    '## Next steps',
    'continue the task',
  ].join('\n');
}

/**
 * A stand-in for a WebLLM engine, for tests and for demos on machines without WebGPU: implements
 * `chat.completions.create` with WebLLM's own rules that matter here. A prompt longer than the window
 * throws WebLLM's `ContextWindowSizeExceededError` text; an answer is cut where prompt and answer fill
 * the window or at `max_tokens` (`finish_reason: 'length'`); the last message must be the user's; a
 * `hang`ing call waits for `interruptGenerate()`. Usage reports the prompt tokens it counted.
 * @example
 * ```ts
 * const engine = createEngineDouble({ contextWindow: 4_096 });
 * const tier = webllmTier({ engine });
 * // … after a compaction: engine.calls.every((call) => call.promptTokens <= 4_096)
 * ```
 */
export function createEngineDouble(options: EngineDoubleOptions = {}): EngineDouble {
  const contextWindow = options.contextWindow ?? 4_096;
  const estimator = heuristicEstimator();
  const countText = options.countText ?? ((text: string) => estimator.estimate(text));
  const tokensPerMessage = options.tokensPerMessage ?? 5;
  const calls: EngineDoubleCall[] = [];
  let interrupts = 0;
  let unloaded = false;
  let interruptPending: (() => void) | undefined;

  const create = async (request: WebllmChatRequest): Promise<WebllmChatCompletion> => {
    const index = calls.length;
    // The template's generation prompt (`<|im_start|>assistant\n`) counts too.
    const promptTokens = request.messages.reduce((sum, message) => sum + countText(message.content) + tokensPerMessage, 3);
    const call: EngineDoubleCall = { request, promptTokens };
    calls.push(call);
    const fail = (error: Error): never => {
      call.error = error;
      throw error;
    };
    if (unloaded)
      fail(
        new Error(
          'Model not loaded before trying to complete ChatCompletionRequest. Please ensure you have called MLCEngine.reload(model) to load the model before initiating APIs, or initialize your engine using CreateMLCEngine() with a valid model configuration.',
        ),
      );
    const last = request.messages.at(-1);
    if (last?.role !== 'user') fail(Object.assign(new Error('Last message should be from either `user` or `tool`.'), { name: 'MessageOrderError' }));
    if (request.messages.some((message, position) => message.role === 'system' && position > 0)) {
      fail(Object.assign(new Error('System prompt should always be the first message in `messages`.'), { name: 'SystemMessageOrderError' }));
    }
    if (promptTokens > contextWindow) fail(Object.assign(new Error(contextWindowErrorText(promptTokens, contextWindow)), { name: 'ContextWindowSizeExceededError' }));
    if (options.hang?.(request, index)) {
      await new Promise<void>((resolve) => {
        if (!options.ignoreInterrupt) interruptPending = resolve;
      });
      call.finishReason = 'abort';
      return { choices: [{ message: { content: '' }, finish_reason: 'abort' }], usage: { prompt_tokens: promptTokens, completion_tokens: 0 } };
    }
    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
    const full = await (options.respond ?? structuredAnswer)(request, { index, promptTokens });
    // Generation stops at max_tokens or where the window is full, whichever comes first.
    const room = Math.min(request.max_tokens ?? Number.POSITIVE_INFINITY, contextWindow - promptTokens);
    let answer = full;
    while (answer.length > 0 && countText(answer) > room) answer = answer.slice(0, Math.floor(answer.length * 0.9));
    call.answer = answer;
    call.finishReason = answer === full ? 'stop' : 'length';
    // A cut answer is one that generated until the limit.
    const completionTokens = answer === full ? countText(answer) : room;
    return { choices: [{ message: { content: answer }, finish_reason: call.finishReason }], usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens } };
  };

  return {
    chat: { completions: { create } },
    calls,
    get interrupts() {
      return interrupts;
    },
    get unloaded() {
      return unloaded;
    },
    interruptGenerate() {
      interrupts += 1;
      const resume = interruptPending;
      interruptPending = undefined;
      resume?.();
    },
    async unload() {
      unloaded = true;
    },
  };
}
