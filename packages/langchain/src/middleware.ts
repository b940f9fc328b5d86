import { CtxkitError, type ErrorClassification, type Message } from '@ctxkit/core';
import { type ContextManager, createHostHistory, type PrepareReport } from '@ctxkit/engine';
import type { LanguageModelLike } from '@langchain/core/language_models/base';
import type { BaseMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createMiddleware } from 'langchain';
import { createConversionCache, fromBaseMessages, toBaseMessages } from './convert.ts';
import { usageFromMessage } from './usage.ts';

/** Options for {@link ctxkitMiddleware}. */
export interface CtxkitMiddlewareOptions {
  /** The manager of this agent run (one per conversation). */
  manager: ContextManager;
  /**
   * The model id the manager looks the window up by (`openai:gpt-4o`).
   * @default `${model._llmType()}:${model.model}` of the agent's chat model
   */
  model?: string;
  /**
   * What a failed call means, for `manager.recover` (e.g. `classifyError` from @ctxkit/provider-utils).
   * @default the error as it is: the manager asks the registered provider of the model to classify it
   */
  classifyError?: (error: unknown) => ErrorClassification;
  /** Called with each prepare's report. */
  onPrepare?: (report: PrepareReport) => void;
  /**
   * The agent's chat model with its output limit lowered to `maxOutputTokens`, for the one retry after an
   * overflow the requested output caused (`recover` answers `lower-output`): LangChain has no per-call output
   * limit its chat models share (decision 0099), so the host, who built the model, builds the lowered copy.
   * Return undefined to rethrow instead.
   * @default none: such an error is rethrown
   * @example
   * ```ts
   * modelWithOutputLimit: (maxTokens) => new ChatOpenAI({ model: 'qwen3-32b', maxTokens, configuration: { baseURL } })
   * ```
   */
  modelWithOutputLimit?: (maxOutputTokens: number) => LanguageModelLike | undefined;
}

/** The model id of a LangChain chat model for ctxkit: `llmType:model`. */
export function modelIdOf(model: unknown): string {
  const chat = model as { _llmType?: () => string; model?: unknown; modelName?: unknown; getName?: () => string };
  const provider = typeof chat?._llmType === 'function' ? chat._llmType() : 'langchain';
  const name = typeof chat?.model === 'string' ? chat.model : typeof chat?.modelName === 'string' ? chat.modelName : typeof chat?.getName === 'function' ? chat.getName() : 'unknown';
  return `${provider}:${name}`;
}

/**
 * The request's tools as the JSON a provider is sent (OpenAI's function shape; a provider's own tool
 * object as it is), for the meter's fixed floor. The same list (tool for tool) gets the same array back,
 * so the meter counts it once.
 */
function createToolDefinitions(): (tools: readonly unknown[] | undefined) => readonly unknown[] | undefined {
  let last: { tools: readonly unknown[]; definitions: readonly unknown[] } | undefined;
  const definitionOf = (tool: unknown): unknown => {
    try {
      return convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]);
    } catch {
      // A schema LangChain cannot turn into JSON Schema: its name and description still cost tokens.
      const { name, description } = tool as { name?: unknown; description?: unknown };
      return { type: 'function', function: { name: String(name), description: String(description ?? '') } };
    }
  };
  return (tools) => {
    if (!tools || tools.length === 0) return undefined;
    if (last && last.tools.length === tools.length && last.tools.every((tool, index) => tool === tools[index])) return last.definitions;
    last = { tools: [...tools], definitions: tools.map(definitionOf) };
    return last.definitions;
  };
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return `an object without invoke (${Object.keys(value).slice(0, 3).join(', ') || 'no keys'})`;
}

/**
 * The host's model for the retry of an overflow the requested output caused; undefined to rethrow. What the
 * host's function throws or returns instead of a model is named here: LangChain would otherwise fail deep in
 * the agent ("Cannot use 'in' operator to search for 'tools'", "must define bindTools method").
 * @throws CtxkitError INVALID_ARGUMENT when `modelWithOutputLimit` throws (its error the cause) or returns
 * something other than a chat model (the provider's error the cause)
 */
function loweredModel(build: CtxkitMiddlewareOptions['modelWithOutputLimit'], maxOutputTokens: number, failure: unknown): LanguageModelLike | undefined {
  if (!build) return undefined;
  const call = `modelWithOutputLimit(${maxOutputTokens})`;
  let lowered: unknown;
  try {
    lowered = build(maxOutputTokens);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'langchain', message: `${call} threw, so the call its output overflowed was not retried: ${reason}`, cause });
  }
  if (lowered === undefined || lowered === null) return undefined;
  if (typeof (lowered as { invoke?: unknown }).invoke === 'function') return lowered as LanguageModelLike;
  throw new CtxkitError({
    code: 'INVALID_ARGUMENT',
    source: 'langchain',
    message: `${call} returned ${describeValue(lowered)}, not a chat model: return the agent's chat model built with that output limit (new ChatOpenAI({ model, maxTokens })), or undefined to rethrow`,
    cause: failure,
  });
}

/**
 * A LangChain.js v1 agent middleware (for `createAgent({ middleware })`) that keeps every model call inside
 * the window: it prepares the request's messages with the manager (`wrapModelCall`; the agent's state keeps
 * the full history) with the request's tools counted in the fixed floor, records `usage_metadata`, and on an
 * error asks `manager.recover`, retrying once with the compacted messages when it was an overflow, or with
 * `modelWithOutputLimit`'s model when the requested output caused it (without that option, it rethrows).
 * @throws CtxkitError INVALID_ARGUMENT when `manager` is missing; the middleware's call rejects with it when
 * `modelWithOutputLimit` throws or returns something other than a chat model
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: [...tools, restoreTool(manager)], middleware: [ctxkitMiddleware({ manager })] });
 * ```
 */
export function ctxkitMiddleware(options: CtxkitMiddlewareOptions) {
  const manager = options?.manager;
  if (!manager || typeof manager.prepare !== 'function' || typeof manager.record !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'langchain', message: 'ctxkitMiddleware needs { manager }: a context manager from createCtxkit or createContextManager' });
  }
  const cache = createConversionCache();
  const toolDefinitions = createToolDefinitions();
  // The agent's state keeps the whole history; continue from what was sent last time.
  const history = createHostHistory();
  // The system prompt as one object while it stays the same: the meter counts by identity.
  let system: { text: string; message: Message } | undefined;
  return createMiddleware({
    name: 'CtxkitMiddleware',
    wrapModelCall: async (request, handler) => {
      const model = options.model ?? modelIdOf(request.model);
      const text = request.systemPrompt;
      if (text && system?.text !== text) system = { text, message: { role: 'system', content: text } };
      const converted = fromBaseMessages(request.messages, cache);
      const withSystem = text && system && converted[0]?.role !== 'system' ? [system.message, ...converted] : converted;
      const tools = toolDefinitions(request.tools);
      const prepared = await manager.prepare(history.continue(withSystem), { model, ...(tools ? { tools } : {}) });
      history.remember(withSystem, prepared.messages);
      options.onPrepare?.(prepared.report);
      const back = (list: readonly Message[]): BaseMessage[] => toBaseMessages(withSystem === converted ? list : list.slice(1));
      const call = async (sent: readonly Message[], chatModel = request.model) => {
        const response = await handler({ ...request, model: chatModel, messages: sent === withSystem ? request.messages : back(sent) });
        const usage = usageFromMessage(response);
        if (usage) manager.record({ model, usage, messageCount: sent.length, messages: sent });
        return response;
      };
      try {
        return await call(prepared.messages);
      } catch (error) {
        const recovered = await manager.recover(prepared.messages, options.classifyError ? options.classifyError(error) : error, { model, ...(tools ? { tools } : {}) });
        if ('report' in recovered && recovered.report) options.onPrepare?.(recovered.report);
        if (recovered.action === 'lower-output') {
          const lowered = loweredModel(options.modelWithOutputLimit, recovered.maxOutputTokens, error);
          if (!lowered) throw error;
          return call(prepared.messages, lowered);
        }
        if (recovered.action !== 'retry') throw error;
        const retry = recovered.messages;
        history.remember(withSystem, retry);
        // A compaction that folded the system prompt away never happens (it stays first), but check.
        if (withSystem !== converted && retry[0]?.role !== 'system') throw error;
        return call(retry);
      }
    },
  });
}
