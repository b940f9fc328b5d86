import { type ContentPart, type Message, textOf } from '@ctxkit/core';
import { Tiktoken } from 'js-tiktoken/lite';
import { type TiktokenEncoding, tiktokenCounter } from '@ctxkit/tokens';

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

/**
 * Texts longer than this are encoded a chunk at a time (see {@link chunksAtPieceBoundaries}). Small
 * enough that js-tiktoken's token array for a chunk (at most 8K numbers, 64 KB) is an ordinary young
 * object: the array being filled is promoted at every young collection, and a 64K-character chunk's
 * array (360 KB for base64) promoted that often grew a 40 MB blob's replay by 300 MB of old garbage.
 */
const chunkChars = 1 << 13;

/** A special-token literal (`<|endoftext|>`), which the provider counts as one token: never cut inside. */
const specialToken = /<\|[a-z_]{1,30}\|>/y;

/** The longest special-token literal the pattern takes: `<|`, 30 characters, `|>`. */
const longestSpecialToken = 34;

/** True when `cut` falls inside a special-token literal of `text` (looking back only as far as one can start). */
function insideSpecialToken(text: string, cut: number): boolean {
  const from = Math.max(0, cut - longestSpecialToken);
  const opened = text.slice(from, cut + 1).lastIndexOf('<|');
  if (opened < 0) return false;
  specialToken.lastIndex = from + opened;
  return specialToken.test(text) && specialToken.lastIndex > cut;
}

/** A cut at `at` moved off the second half of a surrogate pair and out of a special-token literal. */
function forcedCut(text: string, at: number): number {
  let cut = at;
  const before = text.charCodeAt(cut - 1);
  if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
  if (insideSpecialToken(text, cut)) cut = text.indexOf('|>', cut) + 2;
  return cut;
}

/**
 * Splits a long text into chunks of at least `size` characters, each cut where both encodings' split
 * patterns always end a piece: after a line break that a letter follows (a line break never joins the
 * word after it); after a non-space character that a space and a letter follow (the word takes the
 * space, and nothing before it does); after a letter that anything but a letter, a mark or an
 * apostrophe follows (a word is letters and marks, with a contraction such as `'s` at most, and a piece
 * that is not a word holds no letter); never inside a special-token literal. The pieces, and so the
 * token count, are those of the whole text; encoding a chunk at a time keeps js-tiktoken's token array
 * at a chunk's size instead of the text's (11.9M numbers for a 40 MB log). Such a place is looked for
 * up to `max(size, 4,096)` characters past the chunk's size; a stretch with none (one piece longer than
 * that: 40 MB of one letter) is cut at `size` regardless, where a token may split, since js-tiktoken's
 * merge of one long piece takes time that grows with its square. A shorter tail with none stays whole.
 */
export function chunksAtPieceBoundaries(text: string, size: number): string[] {
  return providerChunks(text, size).map((chunk) => chunk.text);
}

/** {@link chunksAtPieceBoundaries}, saying which chunks were cut (or left) inside one piece: `forced`. */
export function providerChunks(text: string, size: number): { text: string; forced: boolean }[] {
  const chunks: { text: string; forced: boolean }[] = [];
  const lookahead = Math.max(size, 4_096);
  const boundary = /(?<=\n)(?=\p{L})|(?<=\S)(?= \p{L})|(?<=\p{L})(?=[^\p{L}\p{M}'\u2019])/gu;
  let start = 0;
  while (text.length - start > size) {
    const from = start + size;
    // Searched in a window (one character before it for the look-behinds), so a text with no cut is not
    // scanned to its end once per chunk.
    const window = text.slice(from - 1, from + lookahead);
    let cut = -1;
    boundary.lastIndex = 1;
    for (let found = boundary.exec(window); found; found = boundary.exec(window)) {
      const at = from - 1 + found.index;
      if (!insideSpecialToken(text, at)) {
        cut = at;
        break;
      }
      boundary.lastIndex = found.index + 1;
    }
    if (cut < 0 && from + lookahead >= text.length) {
      chunks.push({ text: text.slice(start), forced: true });
      return chunks;
    }
    const forced = cut < 0;
    if (forced) cut = forcedCut(text, from);
    chunks.push({ text: text.slice(start, cut), forced });
    start = cut;
  }
  chunks.push({ text: text.slice(start), forced: false });
  return chunks;
}

/** Loads the encoding's ranks (once per process) and returns a simulated provider's counter. */
export async function createSimulatedProviderCounter(encoding: TiktokenEncoding = 'o200k_base'): Promise<SimulatedProviderCounter> {
  const tokenizer = await encoderFor(encoding);
  // For chunks cut inside one piece only (a run with no break: 40 MB of one letter): js-tiktoken merges a
  // piece in time that grows with its square (3.8 s for 8,192 letters), so those chunks are counted by a
  // byte-pair counter of the provider's own, which tests hold identical to js-tiktoken (decision 0091).
  const longRuns = tiktokenCounter(encoding);
  await longRuns.load();
  const perMessage = new WeakMap<Message, number>();
  const encodedLength = (text: string) => (text.length === 0 ? 0 : tokenizer.encode(text, 'all').length);
  const countText = (text: string) =>
    text.length <= chunkChars ? encodedLength(text) : providerChunks(text, chunkChars).reduce((sum, chunk) => sum + (chunk.forced ? longRuns.count(chunk.text) : encodedLength(chunk.text)), 0);
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
