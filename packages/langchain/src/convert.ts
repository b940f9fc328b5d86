import { type ContentPart, CtxkitError, jsonText, type Message, type ToolCall } from '@ctxkit/core';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';

// biome-ignore lint/suspicious/noExplicitAny: content blocks of every provider are read through one loose shape
type LooseBlock = { type?: string; [key: string]: any };

/** What the adapter keeps in `meta.langchain`: the message a ctxkit message was made from. */
export interface LangChainCarried {
  original: BaseMessage;
}

const source = 'langchain';

function typeOf(message: BaseMessage): string {
  return typeof message?.getType === 'function' ? message.getType() : String((message as { type?: unknown })?.type);
}

function imageFromUrl(url: string, mediaType?: string): ContentPart {
  const dataUrl = /^data:([^;,]+)[;,]/.exec(url);
  return { type: 'image', mediaType: mediaType ?? dataUrl?.[1] ?? 'image/*', url };
}

// What ctxkit sees of a content block: text it can count, an image it can strip, or a short marker for the rest.
function blockToCtxkit(block: LooseBlock | string): ContentPart | undefined {
  if (typeof block === 'string') return { type: 'text', text: block };
  switch (block.type) {
    case 'text':
      return { type: 'text', text: String(block.text ?? '') };
    case 'reasoning':
    case 'thinking':
      return { type: 'text', text: String(block.reasoning ?? block.thinking ?? '') };
    case 'image_url': {
      const url = typeof block.image_url === 'string' ? block.image_url : block.image_url?.url;
      return typeof url === 'string' ? imageFromUrl(url) : { type: 'text', text: '[image]' };
    }
    case 'image': {
      const mediaType = String(block.mimeType ?? block.mime_type ?? 'image/*');
      if (typeof block.url === 'string') return imageFromUrl(block.url, mediaType);
      if (typeof block.data === 'string' && block.data !== '') return { type: 'image', mediaType, data: block.data };
      if (block.source_type === 'url' && typeof block.url === 'string') return imageFromUrl(block.url, mediaType);
      return { type: 'text', text: `[image ${mediaType}]` };
    }
    // Tool calls travel in `tool_calls`; provider echoes of them in the content would count twice.
    case 'tool_use':
    case 'tool_call':
    case 'function_call':
      return undefined;
    default:
      return { type: 'text', text: `[${block.type ?? 'block'}]` };
  }
}

function contentToCtxkit(content: unknown): string | ContentPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts = (content as (LooseBlock | string)[]).map(blockToCtxkit).filter((part): part is ContentPart => part !== undefined);
  return parts;
}

function toolCallsOf(message: BaseMessage): ToolCall[] {
  const calls = (message as AIMessage).tool_calls ?? [];
  return calls.map((call, index) => ({ id: call.id ?? `call_${index}`, name: call.name, arguments: jsonText(call.args ?? {}) }));
}

function convertOne(message: BaseMessage, index: number, first: boolean): Message {
  const meta = { langchain: { original: message } satisfies LangChainCarried };
  const type = typeOf(message);
  switch (type) {
    case 'system':
      // ctxkit holds one system message, first; a later one is kept as a user message.
      return first
        ? { role: 'system', content: typeof message.content === 'string' ? message.content : textOfBlocks(message.content), meta }
        : { role: 'user', content: contentToCtxkit(message.content), meta };
    case 'human':
    case 'generic':
      return { role: 'user', content: contentToCtxkit(message.content), meta };
    case 'ai': {
      const toolCalls = toolCallsOf(message);
      return { role: 'assistant', content: contentToCtxkit(message.content), ...(toolCalls.length > 0 ? { toolCalls } : {}), meta };
    }
    case 'tool': {
      const tool = message as ToolMessage;
      return { role: 'tool', toolCallId: String(tool.tool_call_id), ...(tool.name ? { toolName: tool.name } : {}), content: contentToCtxkit(tool.content), meta };
    }
    default:
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `message ${index} type: expected system, human, ai or tool, got ${jsonText(type)}` });
  }
}

function textOfBlocks(content: unknown): string {
  const parts = contentToCtxkit(content);
  return typeof parts === 'string' ? parts : parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/**
 * Remembers the last conversion, so a message that comes again converts to the same ctxkit object
 * (the meter counts by identity, and only new messages cost).
 */
export interface ConversionCache {
  entries: WeakMap<BaseMessage, Message>;
}

/** A cache for {@link fromBaseMessages}: one per conversation. */
export function createConversionCache(): ConversionCache {
  return { entries: new WeakMap() };
}

/**
 * Converts LangChain `BaseMessage`s to ctxkit messages: AIMessage `tool_calls` become tool calls, ToolMessages
 * tool results, content blocks text and images. The original rides in `meta.langchain`, so
 * {@link toBaseMessages} gives back every message ctxkit did not rewrite as the same object.
 * @throws CtxkitError INVALID_ARGUMENT naming the index of a message that is not a BaseMessage of a known type
 */
export function fromBaseMessages(messages: readonly BaseMessage[], cache?: ConversionCache): Message[] {
  if (!Array.isArray(messages)) throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `expected an array of BaseMessages, got ${jsonText(messages)}` });
  return messages.map((message, index) => {
    if (typeof message !== 'object' || message === null) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `message ${index}: expected a BaseMessage, got ${jsonText(message)}` });
    }
    const first = index === 0;
    // LangGraph keeps message objects in state from step to step: identity is the key.
    const cached = cache?.entries.get(message);
    if (cached && (cached.role === 'system') === (first && typeOf(message) === 'system')) return cached;
    const converted = convertOne(message, index, first);
    cache?.entries.set(message, converted);
    return converted;
  });
}

function fingerprint(message: Message): string {
  const toolCalls = message.role === 'assistant' ? message.toolCalls : undefined;
  const tool = message.role === 'tool' ? [message.toolCallId, message.toolName] : undefined;
  return jsonText([message.content, toolCalls ?? null, tool ?? null]);
}

function unchanged(message: Message, original: BaseMessage): boolean {
  return fingerprint(message) === fingerprint(convertOne(original, 0, message.role === 'system'));
}

function blocksOut(content: string | readonly ContentPart[]): string | LooseBlock[] {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: part.url ?? `data:${part.mediaType};base64,${part.data ?? ''}` } }));
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { input: value };
  } catch {
    return { input: text };
  }
}

/**
 * Converts ctxkit messages back to LangChain messages: the original object for every message ctxkit left
 * alone, and a new HumanMessage, AIMessage, ToolMessage or SystemMessage for what it wrote (summaries,
 * stubs, reinjected blocks).
 */
export function toBaseMessages(messages: readonly Message[]): BaseMessage[] {
  return messages.map((message) => {
    const original = (message.meta?.langchain as LangChainCarried | undefined)?.original;
    if (original && unchanged(message, original)) return original;
    const id = original?.id;
    switch (message.role) {
      case 'system':
        return new SystemMessage({ content: message.content });
      case 'user':
        return new HumanMessage({ content: blocksOut(message.content) as never, ...(id ? { id } : {}) });
      case 'assistant':
        return new AIMessage({
          content: blocksOut(message.content) as never,
          tool_calls: (message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name, args: parseArguments(call.arguments), type: 'tool_call' as const })),
          ...(id ? { id } : {}),
        });
      default:
        return new ToolMessage({ content: blocksOut(message.content) as never, tool_call_id: message.toolCallId, ...(message.toolName ? { name: message.toolName } : {}), ...(id ? { id } : {}) });
    }
  });
}
