import { type ContentPart, type Message, textOf } from '@ctxkit/core';
import { Tiktoken } from 'js-tiktoken/lite';
import type { TiktokenEncoding } from '@ctxkit/tokens';

/**
 * The simulated provider's own token count, kept apart from ctxkit's meter on purpose: it encodes with
 * js-tiktoken (not ctxkit's byte-pair counter) and frames messages the way OpenAI documents for chat
 * requests (3 tokens a message, 3 to prime the reply, a tool call's name and arguments as text), so a
 * miscount in ctxkit's meter shows up as an overflow in a replay instead of cancelling out.
 */
export interface SimulatedProviderCounter {
  /** Input tokens of a request as the provider would bill them. */
  count(messages: readonly Message[]): number;
  /** Tokens of a piece of text. */
  countText(text: string): number;
}

const ranksOf: Record<TiktokenEncoding, () => Promise<{ default: ConstructorParameters<typeof Tiktoken>[0] }>> = {
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
};

/** Each image part, as the provider bills a detailed image of typical size. */
const imageTokens = 765;

// Building an encoder from its ranks takes a good part of a second: once per encoding and process.
const encoders = new Map<TiktokenEncoding, Promise<Tiktoken>>();
const encoderFor = (encoding: TiktokenEncoding) => {
  let encoder = encoders.get(encoding);
  if (!encoder) {
    encoder = ranksOf[encoding]().then((ranks) => new Tiktoken(ranks.default));
    encoders.set(encoding, encoder);
  }
  return encoder;
};

/** Loads the encoding's ranks (once per process) and returns a simulated provider's counter. */
export async function createSimulatedProviderCounter(encoding: TiktokenEncoding = 'o200k_base'): Promise<SimulatedProviderCounter> {
  const tokenizer = await encoderFor(encoding);
  const perMessage = new WeakMap<Message, number>();
  const countText = (text: string) => (text.length === 0 ? 0 : tokenizer.encode(text, 'all').length);
  const countMessage = (message: Message): number => {
    let tokens = perMessage.get(message);
    if (tokens !== undefined) return tokens;
    const content = message.content as string | ContentPart[];
    const images = typeof content === 'string' ? 0 : content.filter((part) => part.type === 'image').length;
    tokens = 3 + countText(message.role) + countText(textOf(content)) + images * imageTokens;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) tokens += 3 + countText(call.name) + countText(call.arguments);
    if (message.role === 'tool') tokens += countText(message.toolCallId);
    perMessage.set(message, tokens);
    return tokens;
  };
  return {
    count: (messages) => messages.reduce((sum, message) => sum + countMessage(message), 3),
    countText,
  };
}
