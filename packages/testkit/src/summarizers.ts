import { type Message, type SummarizeRequest, type SummarizerPlugin, textOf } from '@ctxkit/core';

/**
 * A summarizer whose answer a test writes: `scriptedSummarizer((request) => 'summary')`. Throwing or
 * returning a rejected promise from `respond` plays a failed model call.
 */
export function scriptedSummarizer(respond: (request: SummarizeRequest) => string | Promise<string>, options: { contextWindow?: number } = {}): SummarizerPlugin<'scripted'> {
  return {
    specificationVersion: 'v1',
    kind: 'summarizer',
    id: 'scripted',
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    summarize: async (request) => respond(request),
  };
}

function firstUserText(messages: readonly Message[]): string {
  const first = messages.find((message) => message.role === 'user');
  return first ? textOf(first.content) : '';
}

/**
 * A deterministic offline summarizer for tests: a structured summary that keeps the first user message
 * verbatim as the task and lists the tool calls it saw, far shorter than a real transcript.
 */
export function deterministicSummarizer(options: { contextWindow?: number } = {}): SummarizerPlugin<'deterministic'> {
  return {
    specificationVersion: 'v1',
    kind: 'summarizer',
    id: 'deterministic',
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    async summarize({ messages }) {
      const calls = messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.name) : []));
      const task = firstUserText(messages);
      return [
        '## Task',
        task || '(no user message in this span)',
        '## Done',
        `${messages.length} messages, ${calls.length} tool calls (${[...new Set(calls)].join(', ') || 'none'})`,
        '## Next steps',
        'continue',
      ].join('\n');
    },
  };
}
