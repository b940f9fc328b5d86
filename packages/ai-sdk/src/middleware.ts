import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Middleware, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { CtxkitError, type ErrorClassification, type Message } from '@ctxkit/core';
import { type ContextManager, createHostHistory, type PrepareReport } from '@ctxkit/engine';
import { createConversionCache, fromLanguageModelPrompt, toLanguageModelPrompt } from './convert.ts';
import { usageFromLanguageModel } from './usage.ts';

/** Options for {@link ctxkitMiddleware}. */
export interface CtxkitMiddlewareOptions {
  /** The manager of this agent run (one per conversation). */
  manager: ContextManager;
  /**
   * The model id the manager looks the window up by (`openai:gpt-4o`), or a function of the wrapped model.
   * @default {@link modelIdOf} the wrapped model: `openai:gpt-4o` for `openai('gpt-4o')`
   */
  model?: string | ((model: LanguageModelV4) => string);
  /**
   * What a failed call means, for `manager.recover` (e.g. `classifyError` from @ctxkit/provider-utils).
   * @default the error as it is: the manager asks the registered provider of the model to classify it
   */
  classifyError?: (error: unknown) => ErrorClassification;
  /** Called with each prepare's report (what was measured, whether and how it compacted). */
  onPrepare?: (report: PrepareReport) => void;
}

// AI SDK provider names whose ctxkit provider plugin has another id.
const providerAliases: Record<string, string> = { google: 'gemini', 'google-vertex': 'gemini' };

/**
 * The model id a wrapped model has for ctxkit: `provider:modelId`, the provider named as ctxkit's provider
 * plugins are (`openai.responses` → `openai`, `anthropic.messages` → `anthropic`, `google.generative-ai` → `gemini`).
 * @example modelIdOf(openai('gpt-4o')) // 'openai:gpt-4o'
 */
export function modelIdOf(model: LanguageModelV4): string {
  const provider = model.provider.split('.')[0] ?? model.provider;
  return `${providerAliases[provider] ?? provider}:${model.modelId}`;
}

/**
 * A LanguageModelV4 middleware (`wrapLanguageModel`) that keeps every call inside the model's window:
 * it prepares the prompt with the manager before the call, records the usage the call reports, and on
 * an error asks `manager.recover`, retrying once with the compacted prompt when it was an overflow.
 *
 * When to use: any `generateText` / `streamText` / agent loop on the AI SDK; every step goes through it.
 * Gotchas: one manager per conversation (it anchors on the last call's usage); use this or
 * {@link ctxkitPrepareStep}, not both; add {@link restoreTool} to the tools so stubs can be restored.
 * @throws CtxkitError INVALID_ARGUMENT when `manager` is missing
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: ctxkitMiddleware({ manager, model: 'openai:gpt-4o' }) });
 * const result = await generateText({ model, tools: { ...tools, restore_tool_result: restoreTool(manager) }, stopWhen: stepCountIs(200), prompt });
 * ```
 */
export function ctxkitMiddleware(options: CtxkitMiddlewareOptions): LanguageModelV4Middleware {
  const manager = options?.manager;
  if (!manager || typeof manager.prepare !== 'function' || typeof manager.record !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'ai-sdk', message: 'ctxkitMiddleware needs { manager }: a context manager from createCtxkit or createContextManager' });
  }
  const modelOf = (model: LanguageModelV4) => (typeof options.model === 'function' ? options.model(model) : (options.model ?? modelIdOf(model)));
  // The ctxkit messages each prepared call sent: record() and recover() work on them.
  const sent = new WeakMap<LanguageModelV4CallOptions, readonly Message[]>();
  const cache = createConversionCache();
  // The AI SDK resends the whole history every step; continue from what was sent last time.
  const history = createHostHistory();
  const hostOf = new WeakMap<LanguageModelV4CallOptions, readonly Message[]>();

  const record = (params: LanguageModelV4CallOptions, model: LanguageModelV4, usage: Parameters<typeof usageFromLanguageModel>[0]) => {
    const messages = sent.get(params);
    const reported = usageFromLanguageModel(usage);
    if (!messages || !reported) return;
    manager.record({ model: modelOf(model), usage: reported, messageCount: messages.length, messages });
  };

  // On an error: recover once; a retry runs the call again with the compacted prompt, anything else rethrows.
  const retried = async <T>(error: unknown, params: LanguageModelV4CallOptions, model: LanguageModelV4, call: (params: LanguageModelV4CallOptions) => PromiseLike<T>): Promise<T> => {
    const messages = sent.get(params);
    if (!messages) throw error;
    const modelId = modelOf(model);
    const recovered = await manager.recover(messages, options.classifyError ? options.classifyError(error) : error, {
      model: modelId,
      ...(params.tools ? { tools: params.tools } : {}),
      ...(params.abortSignal ? { signal: params.abortSignal } : {}),
    });
    if ('report' in recovered && recovered.report) options.onPrepare?.(recovered.report);
    if (recovered.action === 'retry') {
      const retryParams: LanguageModelV4CallOptions = { ...params, prompt: toLanguageModelPrompt(recovered.messages) };
      sent.set(retryParams, recovered.messages);
      const host = hostOf.get(params);
      if (host) history.remember(host, recovered.messages);
      return call(retryParams);
    }
    if (recovered.action === 'lower-output' && recovered.maxOutputTokens !== undefined) {
      const retryParams: LanguageModelV4CallOptions = { ...params, maxOutputTokens: recovered.maxOutputTokens };
      sent.set(retryParams, messages);
      return call(retryParams);
    }
    throw error;
  };

  return {
    specificationVersion: 'v4',
    transformParams: async ({ params, model }) => {
      const converted = fromLanguageModelPrompt(params.prompt, cache);
      const messages = history.continue(converted);
      const prepared = await manager.prepare(messages, {
        model: modelOf(model),
        ...(params.tools ? { tools: params.tools } : {}),
        ...(params.abortSignal ? { signal: params.abortSignal } : {}),
      });
      options.onPrepare?.(prepared.report);
      history.remember(converted, prepared.messages);
      const next: LanguageModelV4CallOptions = { ...params, prompt: prepared.messages === converted ? params.prompt : toLanguageModelPrompt(prepared.messages) };
      sent.set(next, prepared.messages);
      hostOf.set(next, converted);
      return next;
    },
    wrapGenerate: async ({ doGenerate, params, model }) => {
      const generate = async (callParams: LanguageModelV4CallOptions) => {
        const result = await model.doGenerate(callParams);
        record(callParams, model, result.usage);
        return result;
      };
      let result: Awaited<ReturnType<typeof doGenerate>>;
      try {
        result = await doGenerate();
      } catch (error) {
        return retried(error, params, model, generate);
      }
      record(params, model, result.usage);
      return result;
    },
    wrapStream: async ({ doStream, params, model }) => {
      // Usage arrives in the stream's finish part; it is recorded as it passes, the stream is unchanged.
      const recording = (result: LanguageModelV4StreamResult, callParams: LanguageModelV4CallOptions): LanguageModelV4StreamResult => ({
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
            transform(part, controller) {
              if (part.type === 'finish') record(callParams, model, part.usage);
              controller.enqueue(part);
            },
          }),
        ),
      });
      let result: LanguageModelV4StreamResult;
      try {
        result = await doStream();
      } catch (error) {
        return retried(error, params, model, async (callParams) => recording(await model.doStream(callParams), callParams));
      }
      return recording(result, params);
    },
  };
}
