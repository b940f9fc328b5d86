import { type Message, textOf } from '@ctxkit/core';

/**
 * A deterministic stand-in for a token counter in tests: ceil(characters / 4) of every text the
 * provider would see (content, tool-call names and arguments), 4 tokens of overhead a message and
 * 85 an image. Not a measurement: use `@ctxkit/tokens` for that.
 */
export function approximateCount(messages: readonly Message[]): number {
  let tokens = 0;
  for (const message of messages) {
    tokens += 4 + Math.ceil(textOf(message.content).length / 4);
    if (typeof message.content !== 'string') tokens += 85 * message.content.filter((part) => part.type === 'image').length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) tokens += Math.ceil((call.name.length + call.arguments.length) / 4) + 3;
    }
  }
  return tokens;
}
