import { parseProviderJson } from './provider-call-error.ts';

/** One server-sent event. */
export interface ServerSentEvent {
  /** The `event:` field; undefined for unnamed events (OpenAI Chat Completions sends none). */
  event?: string;
  /** The `data:` lines, joined with newlines. */
  data: string;
  id?: string;
}

type ByteSource = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | Response;

async function* bytesOf(source: ByteSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Response) {
    if (source.body) yield* bytesOf(source.body);
    return;
  }
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The lines of a byte stream, decoded as UTF-8, split on LF, CRLF or CR; the last line even without an end. */
export async function* readLines(source: ByteSource): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of bytesOf(source)) {
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let index = 0; index < pending.length; index++) {
      const character = pending[index];
      if (character !== '\n' && character !== '\r') continue;
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
      if (character === '\r' && index === pending.length - 1) break;
      yield pending.slice(start, index);
      if (character === '\r' && pending[index + 1] === '\n') index++;
      start = index + 1;
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  if (pending.endsWith('\r')) pending = pending.slice(0, -1);
  if (pending !== '') yield pending;
}

/**
 * Server-sent events from a response, a stream or a fetch body, as the SSE specification parses them:
 * comments skipped, multi-line data joined, an event dispatched at each blank line and at the end.
 * @example
 * ```ts
 * for await (const event of readServerSentEvents(response)) if (event.data !== '[DONE]') handle(JSON.parse(event.data));
 * ```
 */
export async function* readServerSentEvents(source: ByteSource): AsyncGenerator<ServerSentEvent> {
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  const dispatch = (): ServerSentEvent | undefined => {
    const result = data.length > 0 ? { data: data.join('\n'), ...(event ? { event } : {}), ...(id ? { id } : {}) } : undefined;
    data = [];
    event = undefined;
    return result;
  };
  for await (const line of readLines(source)) {
    if (line === '') {
      const ready = dispatch();
      if (ready) yield ready;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  }
  const last = dispatch();
  if (last) yield last;
}

/** Options for {@link readJsonEvents} and {@link readJsonLines}. */
export interface JsonStreamOptions {
  /** The provider id, named in errors. */
  provider: string;
  /** Data payloads that end the stream without being JSON. @default ['[DONE]'] */
  terminators?: readonly string[];
}

function parseChunk<T>(text: string, options: JsonStreamOptions, index: number): T {
  return parseProviderJson<T>(text, { provider: options.provider }, () => `stream chunk ${index} is not JSON: ${text.slice(0, 120)}`);
}

/**
 * The JSON payloads of a server-sent event stream, each with its event name; `[DONE]` ends it.
 * @throws ProviderCallError 'malformed' naming the chunk that is not JSON
 */
export async function* readJsonEvents<T = unknown>(source: ByteSource, options: JsonStreamOptions): AsyncGenerator<{ event?: string; data: T }> {
  const terminators = options.terminators ?? ['[DONE]'];
  let index = 0;
  for await (const event of readServerSentEvents(source)) {
    if (terminators.includes(event.data.trim())) return;
    yield { ...(event.event ? { event: event.event } : {}), data: parseChunk<T>(event.data, options, index++) };
  }
}

/**
 * The JSON values of a newline-delimited JSON stream (Ollama's `/api/chat`); blank lines skipped.
 * @throws ProviderCallError 'malformed' naming the line that is not JSON
 */
export async function* readJsonLines<T = unknown>(source: ByteSource, options: JsonStreamOptions): AsyncGenerator<T> {
  let index = 0;
  for await (const line of readLines(source)) {
    if (line.trim() === '') continue;
    yield parseChunk<T>(line, options, index++);
  }
}
