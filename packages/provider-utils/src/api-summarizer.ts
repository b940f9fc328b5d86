import { CtxkitError, type Message, type SummarizerPlugin, textOf } from '@ctxkit/core';
import { ProviderCallError } from './provider-call-error.ts';

/** What an adapter's completion call receives from {@link createApiSummarizer}. */
export interface SummaryCompletionRequest {
  /** The request's instructions: send as the system prompt. */
  system: string;
  /** The messages rendered as data (see {@link renderTranscript}): send as the one user message. */
  prompt: string;
  maxOutputTokens?: number;
  /** Fires on the caller's abort and on the summarizer's timeout. */
  signal: AbortSignal;
}

/** Options for {@link createApiSummarizer}. */
export interface ApiSummarizerOptions<Id extends string> {
  /** The summarizer's id: `openai:gpt-4o`. */
  id: Id;
  /** The provider id, named in errors. */
  provider: string;
  /** Calls the model API once and returns the text of the answer. */
  complete(request: SummaryCompletionRequest): Promise<string>;
  /** The model's input window when known: a number, or a function read at each access (known later). */
  contextWindow?: number | (() => number | undefined);
  /** Gives up after this long. @default 120_000 */
  timeoutMs?: number;
}

function renderContent(content: Message['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n');
}

/**
 * A transcript as plain text for a summarizer prompt: one block per message with its position and
 * role, tool calls with their arguments, tool results with the tool's name, images as placeholders.
 * Sent as data inside one user message, so the model reads the run rather than continuing it.
 */
export function renderTranscript(messages: readonly Message[]): string {
  const blocks = messages.map((message, index) => {
    const head = `[${index + 1}] ${message.role}`;
    switch (message.role) {
      case 'assistant': {
        const calls = (message.toolCalls ?? []).map((call) => `tool call ${call.name} (${call.id}): ${call.arguments}`);
        return [`${head}:`, textOf(message.content) ? renderContent(message.content) : '', ...calls].filter(Boolean).join('\n');
      }
      case 'tool':
        return `${head} (${message.toolName ?? 'result'} for ${message.toolCallId}):\n${renderContent(message.content)}`;
      default:
        return `${head}:\n${renderContent(message.content)}`;
    }
  });
  return `<transcript>\n${blocks.join('\n\n')}\n</transcript>`;
}

/**
 * A summarizer backed by a model API: the request's instructions become the system prompt and the
 * messages travel as data; a timeout and the request's AbortSignal end the call. An empty answer is
 * an error, never an empty summary.
 * @throws (from summarize) CtxkitError TIMEOUT, ABORTED, or PROVIDER_ERROR for a failed call or an empty answer
 */
export function createApiSummarizer<Id extends string>(options: ApiSummarizerOptions<Id>): SummarizerPlugin<Id> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  if (!(timeoutMs > 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: options.provider, message: `summarizer timeoutMs must be above zero, got ${String(timeoutMs)}` });
  }
  const plugin: SummarizerPlugin<Id> = {
    specificationVersion: 'v1',
    kind: 'summarizer',
    id: options.id,
    async summarize(request) {
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`summary took longer than ${timeoutMs} ms`, 'TimeoutError'));
      }, timeoutMs);
      const onAbort = () => controller.abort(request.signal?.reason);
      if (request.signal?.aborted) controller.abort(request.signal.reason);
      else request.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const work = options.complete({
          system: request.instructions,
          prompt: renderTranscript(request.messages),
          ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
          signal: controller.signal,
        });
        // The completion may ignore the signal; the summary must not wait for it regardless.
        const stopped = new Promise<never>((_, reject) => {
          if (controller.signal.aborted) reject(controller.signal.reason);
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
        });
        const text = (await Promise.race([work, stopped])).trim();
        if (text === '') throw new CtxkitError({ code: 'PROVIDER_ERROR', source: options.provider, message: `${options.id} returned an empty summary` });
        return text;
      } catch (error) {
        if (timedOut) throw new CtxkitError({ code: 'TIMEOUT', source: options.provider, message: `${options.id}: summary took longer than ${timeoutMs} ms`, cause: error });
        if (request.signal?.aborted) throw new CtxkitError({ code: 'ABORTED', source: options.provider, message: `${options.id}: summary aborted by the caller`, cause: error });
        if (CtxkitError.isInstance(error) || ProviderCallError.isInstance(error)) throw error;
        throw new CtxkitError({ code: 'PROVIDER_ERROR', source: options.provider, message: `${options.id}: summary call failed: ${(error as Error)?.message ?? String(error)}`, cause: error });
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
  const window = options.contextWindow;
  if (typeof window === 'number') return { ...plugin, contextWindow: window };
  if (typeof window === 'function') {
    Object.defineProperty(plugin, 'contextWindow', { get: window, enumerable: true });
  }
  return plugin;
}
