import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { type ContentPart, CtxkitError, jsonText, type Message, type ToolCall } from '@ctxkit/core';
import type { ModelMessage } from 'ai';

// Both AI SDK message shapes (the provider-level LanguageModelV4 prompt and the call-level ModelMessage)
// share their part names; one converter reads both and writes each back in its own dialect.
type Dialect = 'prompt' | 'model-messages';
// biome-ignore lint/suspicious/noExplicitAny: the two AI SDK message unions are read through one loose shape
type LooseMessage = { role: string; content: any; providerOptions?: unknown };
// biome-ignore lint/suspicious/noExplicitAny: a part of either dialect
type LoosePart = { type: string; [key: string]: any };

/** What the adapter keeps in `meta.aiSdk` of a converted message, so anything ctxkit's model cannot hold comes back. */
export interface AiSdkCarried {
  /** The AI SDK message this ctxkit message was made from (the whole tool message for each of its results). */
  original: LooseMessage;
  /** For a tool result: the index of its message in the input, shared by the results of one tool message. */
  group?: number;
  /** For a tool result: its index in the original message's content. */
  part?: number;
  /** Messages ctxkit has no shape for (a tool message of approval responses only), sent right after this one. */
  trailing?: LooseMessage[];
  /** The same, when they came before any message ctxkit can hold: sent right before this one. */
  leading?: LooseMessage[];
}

const source = 'ai-sdk';

function carriedOf(message: Message): AiSdkCarried | undefined {
  const carried = message.meta?.aiSdk as AiSdkCarried | undefined;
  return carried && typeof carried === 'object' && carried.original ? carried : undefined;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

// An image ctxkit can measure and the image tier can strip: inline data (base64) or a URL.
function imagePart(data: unknown, mediaType: string): ContentPart | undefined {
  if (data instanceof URL) return { type: 'image', mediaType, url: data.href };
  if (typeof data === 'string') {
    if (/^(https?|data):/i.test(data)) return { type: 'image', mediaType, url: data };
    return data === '' ? undefined : { type: 'image', mediaType, data };
  }
  if (data instanceof Uint8Array) return data.length === 0 ? undefined : { type: 'image', mediaType, data: base64(data) };
  if (data instanceof ArrayBuffer) return data.byteLength === 0 ? undefined : { type: 'image', mediaType, data: base64(new Uint8Array(data)) };
  if (data && typeof data === 'object') {
    const tagged = data as { type?: string; data?: unknown; url?: unknown };
    if (tagged.type === 'data') return imagePart(tagged.data, mediaType);
    if (tagged.type === 'url') return imagePart(tagged.url, mediaType);
  }
  return undefined;
}

function fileText(part: LoosePart): string | undefined {
  const data = part.data as { type?: string; text?: unknown } | undefined;
  return data && typeof data === 'object' && data.type === 'text' && typeof data.text === 'string' ? data.text : undefined;
}

// What ctxkit sees of a part: text it can count and summarize, an image it can strip, or a short marker
// for what it has no shape for (the original comes back from meta while the message is unchanged).
function partToCtxkit(part: LoosePart): ContentPart {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return { type: 'text', text: String(part.text ?? '') };
    case 'image': {
      const mediaType = typeof part.mediaType === 'string' && part.mediaType !== '' ? part.mediaType : 'image/*';
      return imagePart(part.image, mediaType) ?? { type: 'text', text: `[image ${mediaType}]` };
    }
    case 'file': {
      const mediaType = String(part.mediaType ?? 'application/octet-stream');
      const text = fileText(part);
      if (text !== undefined) return { type: 'text', text };
      const image = mediaType.startsWith('image/') ? imagePart(part.data, mediaType) : undefined;
      return image ?? { type: 'text', text: `[file ${mediaType}${part.filename ? ` ${part.filename}` : ''}]` };
    }
    case 'tool-call':
      return { type: 'text', text: `[provider tool call ${part.toolName}: ${jsonText(part.input)}]` };
    case 'tool-result':
      return { type: 'text', text: `[provider tool result ${part.toolName}: ${jsonText(part.output)}]` };
    default:
      return { type: 'text', text: `[${part.type}]` };
  }
}

function outputToCtxkit(output: LoosePart | undefined): string | ContentPart[] {
  switch (output?.type) {
    case 'text':
    case 'error-text':
      return String(output.value ?? '');
    case 'json':
    case 'error-json':
      return jsonText(output.value);
    case 'execution-denied':
      return `[execution denied${output.reason ? `: ${output.reason}` : ''}]`;
    case 'content':
      return Array.isArray(output.value) ? (output.value as LoosePart[]).map(partToCtxkit) : '';
    default:
      return `[${output?.type ?? 'empty'} tool output]`;
  }
}

function userContent(content: unknown): string | ContentPart[] {
  return typeof content === 'string' ? content : (content as LoosePart[]).map(partToCtxkit);
}

function assistantFields(content: unknown): { content: string | ContentPart[]; toolCalls?: ToolCall[] } {
  if (typeof content === 'string') return { content };
  const parts: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (const part of content as LoosePart[]) {
    // Provider-executed calls carry their result in the same message; ctxkit's tool pairing is for the host's calls.
    if (part.type === 'tool-call' && part.providerExecuted !== true) {
      toolCalls.push({ id: String(part.toolCallId), name: String(part.toolName), arguments: typeof part.input === 'string' ? part.input : jsonText(part.input ?? {}) });
    } else {
      parts.push(partToCtxkit(part));
    }
  }
  return { content: parts.length === 0 ? '' : parts, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
}

function checkMessage(message: unknown, index: number): asserts message is LooseMessage {
  const role = (message as LooseMessage | null)?.role;
  if (typeof message !== 'object' || message === null || !['system', 'user', 'assistant', 'tool'].includes(role as string)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `message ${index} role: expected system, user, assistant or tool, got ${jsonText(role)}` });
  }
  const content = (message as LooseMessage).content;
  const stringAllowed = role !== 'tool';
  if (!(Array.isArray(content) || (stringAllowed && typeof content === 'string'))) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source,
      message: `message ${index} (${role}) content: expected ${stringAllowed ? 'a string or ' : ''}an array of parts, got ${jsonText(content)}`,
    });
  }
}

// Messages exactly as the conversion made them: unchanged by construction, no need to compare content.
const pristine = new WeakSet<Message>();

function withCarried(message: Message, change: Partial<AiSdkCarried>): Message {
  const carried = message.meta!.aiSdk as AiSdkCarried;
  const copy = { ...message, meta: { ...message.meta, aiSdk: { ...carried, ...change } } } as Message;
  if (pristine.has(message)) pristine.add(copy);
  return copy;
}

// The ctxkit messages one AI SDK message becomes (none for a tool message of approval responses only).
function convertOne(message: LooseMessage, index: number, first: boolean): Message[] {
  const meta = (carried: AiSdkCarried) => ({ aiSdk: carried });
  switch (message.role) {
    case 'system':
      // ctxkit holds one system message, first; a later one (an instruction mid-run) is kept as a user message.
      return [{ role: first ? 'system' : 'user', content: String(message.content), meta: meta({ original: message }) } as Message];
    case 'user':
      return [{ role: 'user', content: userContent(message.content), meta: meta({ original: message }) }];
    case 'assistant':
      return [{ role: 'assistant', ...assistantFields(message.content), meta: meta({ original: message }) }];
    default: {
      const out: Message[] = [];
      (message.content as LoosePart[]).forEach((part, partIndex) => {
        if (part.type !== 'tool-result') return;
        out.push({
          role: 'tool',
          toolCallId: String(part.toolCallId),
          toolName: String(part.toolName),
          content: outputToCtxkit(part.output as LoosePart),
          meta: meta({ original: message, group: index, part: partIndex }),
        });
      });
      return out;
    }
  }
}

// A key for an AI SDK message's content: equal keys convert to the same ctxkit messages. Plain JSON (a
// replacer function would make it several times slower); bytes serialize index by index, URLs as their href.
function keyOf(message: LooseMessage, index: number, first: boolean): string {
  return `${index}:${first}:${JSON.stringify(message)}`;
}

/**
 * Remembers the last conversion, so a message that comes again (the AI SDK rebuilds its prompt every
 * step) converts to the same ctxkit object: the meter counts by identity, and only new messages cost.
 */
export interface ConversionCache {
  /** Per position of the last conversion: the message's key and what it became (compared by position, not hashed). */
  keys: string[];
  converted: Message[][];
  /** The same message object seen again (a host that keeps its message objects): no key to compute. */
  seen: WeakMap<object, { key: string; converted: Message[] }>;
}

/**
 * A cache for {@link fromLanguageModelPrompt} / {@link fromModelMessages}: one per conversation. Messages are
 * treated as values: an object seen before converts to what it became then, so edit by replacing, not in place.
 */
export function createConversionCache(): ConversionCache {
  return { keys: [], converted: [], seen: new WeakMap() };
}

function convertIn(messages: readonly unknown[], dialect: Dialect, cache?: ConversionCache): Message[] {
  if (!Array.isArray(messages))
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `expected an array of ${dialect === 'prompt' ? 'prompt' : 'model'} messages, got ${jsonText(messages)}` });
  const out: Message[] = [];
  const keys: string[] = [];
  const conversions: Message[][] = [];
  let leading: LooseMessage[] = [];
  messages.forEach((message, index) => {
    checkMessage(message, index);
    const first = out.length === 0 && leading.length === 0;
    let converted: Message[];
    if (cache) {
      const seen = cache.seen.get(message);
      const key = seen?.key.startsWith(`${index}:${first}:`) ? seen.key : keyOf(message, index, first);
      converted = (seen?.key === key ? seen.converted : undefined) ?? (cache.keys[index] === key ? cache.converted[index] : undefined) ?? convertOne(message, index, first);
      keys[index] = key;
      conversions[index] = converted;
      cache.seen.set(message, { key, converted });
    } else {
      converted = convertOne(message, index, first);
    }
    for (const made of converted) pristine.add(made);
    if (converted.length === 0) {
      // Approval responses only: ctxkit has no shape for them; they travel on the message before (or after).
      const previous = out.at(-1);
      if (previous) out[out.length - 1] = withCarried(previous, { trailing: [...(carriedOf(previous)!.trailing ?? []), message] });
      else leading.push(message);
      return;
    }
    if (leading.length > 0) {
      converted = [withCarried(converted[0]!, { leading }), ...converted.slice(1)];
      leading = [];
    }
    out.push(...converted);
  });
  if (cache) {
    cache.keys = keys;
    cache.converted = conversions;
  }
  if (leading.length > 0) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source,
      message: 'a prompt of tool approval responses only has nothing ctxkit can prepare; send at least one system, user or assistant message',
    });
  }
  return out;
}

// What ctxkit would make of an original message, cached: a message is unchanged while it still says this.
const projections = new WeakMap<object, string[]>();
function fingerprint(message: Message): string {
  const toolCalls = message.role === 'assistant' ? message.toolCalls : undefined;
  const tool = message.role === 'tool' ? [message.toolCallId, message.toolName] : undefined;
  return jsonText([message.role, message.content, toolCalls ?? null, tool ?? null]);
}
function projection(original: LooseMessage): string[] {
  let cached = projections.get(original);
  if (!cached) {
    cached = convertOne(original, 0, true).map(fingerprint);
    projections.set(original, cached);
  }
  return cached;
}
function unchanged(message: Message, carried: AiSdkCarried): boolean {
  if (pristine.has(message)) return true;
  const projected = projection(carried.original);
  const expected = carried.part === undefined ? projected[0] : projected[resultOrdinal(carried)];
  const actual = fingerprint(message);
  // A system message that became the user's in ctxkit's model (not first) compares by its content.
  return expected === actual || (carried.original.role === 'system' && expected === fingerprint({ ...message, role: 'system' } as Message));
}
function resultOrdinal(carried: AiSdkCarried): number {
  const parts = carried.original.content as LoosePart[];
  let ordinal = 0;
  for (let index = 0; index < (carried.part ?? 0); index += 1) if (parts[index]?.type === 'tool-result') ordinal += 1;
  return ordinal;
}

function withOptions<T extends object>(value: T, providerOptions: unknown): T {
  return providerOptions === undefined ? value : { ...value, providerOptions };
}

function imageOut(part: Extract<ContentPart, { type: 'image' }>, dialect: Dialect): LoosePart {
  const location = part.url !== undefined ? new URL(part.url) : (part.data ?? '');
  if (dialect === 'model-messages') return { type: 'image', image: location, mediaType: part.mediaType };
  return { type: 'file', mediaType: part.mediaType, data: location instanceof URL ? { type: 'url', url: location } : { type: 'data', data: location } };
}

function partsOut(content: string | readonly ContentPart[], dialect: Dialect): LoosePart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : imageOut(part, dialect)));
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toolResultOut(message: Extract<Message, { role: 'tool' }>, was?: LoosePart): LoosePart {
  const content = message.content;
  const output =
    typeof content === 'string' || content.every((part) => part.type === 'text')
      ? { type: 'text', value: typeof content === 'string' ? content : content.map((part) => (part as { text: string }).text).join('\n') }
      : {
          type: 'content',
          value: content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { type: 'file', mediaType: part.mediaType, data: imageOut(part, 'prompt').data })),
        };
  return withOptions({ type: 'tool-result', toolCallId: message.toolCallId, toolName: message.toolName ?? (was?.toolName as string | undefined) ?? 'unknown', output }, was?.providerOptions);
}

// A message ctxkit wrote or rewrote: built from what ctxkit's model holds, keeping the original's provider options.
function build(message: Message, dialect: Dialect, carried: AiSdkCarried | undefined): LooseMessage {
  const providerOptions = carried ? carried.original.providerOptions : undefined;
  switch (message.role) {
    case 'system':
      return withOptions({ role: 'system', content: message.content }, providerOptions);
    case 'user':
      return withOptions({ role: 'user', content: partsOut(message.content, dialect) }, providerOptions);
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((call) => ({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: parseArguments(call.arguments) }));
      return withOptions({ role: 'assistant', content: [...partsOut(message.content, dialect), ...calls] }, providerOptions);
    }
    default: {
      const was = carried?.part !== undefined ? ((carried.original.content as LoosePart[])[carried.part] as LoosePart) : undefined;
      return withOptions({ role: 'tool', content: [toolResultOut(message, was)] }, providerOptions);
    }
  }
}

function convertOut(messages: readonly Message[], dialect: Dialect): LooseMessage[] {
  const out: LooseMessage[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    const carried = carriedOf(message);
    let trailing = carried?.trailing ?? [];
    out.push(...(carried?.leading ?? []));
    if (message.role === 'tool' && carried?.group !== undefined) {
      // The results of one AI SDK tool message travel as several ctxkit messages; they go back as one.
      const original = carried.original;
      const members: { message: Message; carried: AiSdkCarried }[] = [{ message, carried }];
      while (index + 1 < messages.length) {
        const next = messages[index + 1]!;
        const nextCarried = carriedOf(next);
        if (next.role !== 'tool' || nextCarried?.group !== carried.group) break;
        members.push({ message: next, carried: nextCarried });
        trailing = nextCarried.trailing ?? trailing;
        index += 1;
      }
      const parts = original.content as LoosePart[];
      const resultCount = parts.filter((part) => part.type === 'tool-result').length;
      const same = members.map((member) => unchanged(member.message, member.carried));
      if (members.length === resultCount && same.every(Boolean)) {
        out.push(original);
      } else {
        const kept = new Map(members.map((member, memberIndex) => [member.carried.part!, memberIndex]));
        const content: LoosePart[] = [];
        parts.forEach((part, partIndex) => {
          if (part.type !== 'tool-result') {
            content.push(part);
            return;
          }
          const memberIndex = kept.get(partIndex);
          if (memberIndex === undefined) return;
          const member = members[memberIndex]!;
          content.push(same[memberIndex] ? part : toolResultOut(member.message as Extract<Message, { role: 'tool' }>, part));
        });
        out.push(withOptions({ role: 'tool', content }, original.providerOptions));
      }
    } else if (carried && unchanged(message, carried)) {
      out.push(carried.original);
    } else {
      out.push(build(message, dialect, carried));
    }
    out.push(...trailing);
  }
  return out;
}

/**
 * Converts a LanguageModelV4 prompt (what a model or middleware receives) to ctxkit messages. Anything
 * ctxkit's model cannot hold (files, reasoning, approval responses, provider options) rides in `meta.aiSdk`,
 * so {@link toLanguageModelPrompt} gives back every message ctxkit did not rewrite exactly as it came.
 * @throws CtxkitError INVALID_ARGUMENT naming the message index and field of a malformed message
 * @example
 * ```ts
 * const messages = fromLanguageModelPrompt(params.prompt);
 * const prepared = await manager.prepare(messages);
 * const prompt = toLanguageModelPrompt(prepared.messages);
 * ```
 */
export function fromLanguageModelPrompt(prompt: LanguageModelV4Prompt, cache?: ConversionCache): Message[] {
  return convertIn(prompt, 'prompt', cache);
}

/**
 * Converts ctxkit messages back to a LanguageModelV4 prompt: originals for the messages ctxkit left alone,
 * and new messages (text, images as file parts, tool results as text) for summaries, stubs and reinjections.
 */
export function toLanguageModelPrompt(messages: readonly Message[]): LanguageModelV4Prompt {
  return convertOut(messages, 'prompt') as LanguageModelV4Prompt;
}

/**
 * Converts the AI SDK's `ModelMessage`s (what `generateText`, `streamText` and `prepareStep` take) to ctxkit
 * messages, carrying what ctxkit cannot hold in `meta.aiSdk` as {@link fromLanguageModelPrompt} does.
 * @throws CtxkitError INVALID_ARGUMENT naming the message index and field of a malformed message
 */
export function fromModelMessages(messages: readonly ModelMessage[], cache?: ConversionCache): Message[] {
  return convertIn(messages, 'model-messages', cache);
}

/** Converts ctxkit messages back to `ModelMessage`s: originals where ctxkit left a message alone. */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  return convertOut(messages, 'model-messages') as ModelMessage[];
}
