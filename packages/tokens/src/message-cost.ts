import { type ContentPart, CtxkitError, type Message } from '@ctxkit/core';

/** An image part of a message's content. */
export type ImagePart = Extract<ContentPart, { type: 'image' }>;

/** What an image costs: a fixed number of tokens, or a function of the part and its message (size from the data, detail level). */
export type ImageTokens = number | ((part: ImagePart, message: Message) => number);

/**
 * Typical image costs per provider, for the `imageTokens` option of `createMeter`: OpenAI's cost of a
 * 1024×1024 image at high detail, Anthropic's ceiling (about 1.15 megapixels at 750 pixels a token),
 * Gemini's cost of an image up to 384 pixels a side (larger ones are tiled at 258 a tile).
 */
export const imageTokenPresets = { openai: 765, anthropic: 1_600, gemini: 258 } as const;

/** The fixed costs of the message framing, in tokens. */
export interface MessageFraming {
  /** Tokens around every message (role markers). */
  perMessageOverhead: number;
  /** Tokens around every tool call besides its name and arguments. */
  toolCallOverhead: number;
  imageTokens: ImageTokens;
}

const roles = new Set(['system', 'user', 'assistant', 'tool']);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

function invalid(index: number, field: string, problem: string): never {
  throw new CtxkitError({
    code: 'INVALID_TRANSCRIPT',
    source: 'tokens',
    message: `message ${index}${field ? ` ${field}` : ''}: ${problem}`,
    details: [{ index, field, problem }],
  });
}

/**
 * Tokens of one message as the provider counts it, with `countText` as the text counter: the content
 * (text parts and images), tool-call names and arguments, a tool result's tool name, and the framing.
 * Checks every field it reads on the way.
 * @throws CtxkitError INVALID_TRANSCRIPT naming the message index and field: an unknown role, a part
 * of an unknown type, `arguments` that is not a string, an image cost that is not a number ≥ 0
 */
export function messageCost(message: unknown, index: number, countText: (text: string) => number, framing: MessageFraming): number {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) invalid(index, '', `must be a message object, got ${describe(message)}`);
  const record = message as Record<string, unknown>;
  const role = record.role;
  if (typeof role !== 'string' || !roles.has(role)) invalid(index, 'role', `unknown role ${JSON.stringify(role)}; expected system, user, assistant or tool`);
  let tokens = framing.perMessageOverhead;
  const content = record.content;
  if (typeof content === 'string') {
    tokens += countText(content);
  } else if (role !== 'system' && Array.isArray(content)) {
    content.forEach((part: unknown, partIndex) => {
      const field = `content[${partIndex}]`;
      if (typeof part !== 'object' || part === null) invalid(index, field, `must be a content part, got ${describe(part)}`);
      const typed = part as Record<string, unknown>;
      if (typed.type === 'text') {
        if (typeof typed.text !== 'string') invalid(index, `${field}.text`, `must be a string, got ${describe(typed.text)}`);
        tokens += countText(typed.text);
      } else if (typed.type === 'image') {
        const cost = typeof framing.imageTokens === 'number' ? framing.imageTokens : framing.imageTokens(typed as ImagePart, message as Message);
        if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) invalid(index, field, `imageTokens gave ${describe(cost)} for this image; it must be a number ≥ 0`);
        tokens += cost;
      } else {
        invalid(index, `${field}.type`, `unknown part type ${JSON.stringify(typed.type)}; expected text or image`);
      }
    });
  } else {
    invalid(index, 'content', `must be ${role === 'system' ? 'a string' : 'a string or an array of parts'}, got ${describe(content)}`);
  }
  if (role === 'assistant' && record.toolCalls !== undefined) {
    const calls = record.toolCalls;
    if (!Array.isArray(calls)) invalid(index, 'toolCalls', `must be an array, got ${describe(calls)}`);
    calls.forEach((call: unknown, callIndex) => {
      const field = `toolCalls[${callIndex}]`;
      if (typeof call !== 'object' || call === null) invalid(index, field, `must be a tool call object, got ${describe(call)}`);
      const typed = call as Record<string, unknown>;
      if (typeof typed.name !== 'string') invalid(index, `${field}.name`, `must be a string, got ${describe(typed.name)}`);
      if (typeof typed.arguments !== 'string') invalid(index, `${field}.arguments`, `must be the JSON text as a string, got ${describe(typed.arguments)}`);
      tokens += framing.toolCallOverhead + countText(typed.name) + countText(typed.arguments);
    });
  }
  if (role === 'tool' && record.toolName !== undefined) {
    if (typeof record.toolName !== 'string') invalid(index, 'toolName', `must be a string, got ${describe(record.toolName)}`);
    tokens += countText(record.toolName);
  }
  return tokens;
}
