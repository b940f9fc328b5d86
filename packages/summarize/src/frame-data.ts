import type { ContentPart, Message } from '@ctxkit/core';
import { textHash } from './text-hash.ts';

function contentText(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.mediaType} image, not shown]`)).join('\n');
}

function label(message: Message, index: number): string {
  const kind = message.meta?.ctxkit?.kind;
  // Call ids are left out: a result follows its call, and long provider ids cost tokens on every message.
  if (message.role === 'tool') {
    const tool = message.toolName ? ` (${message.toolName})` : '';
    const archived = kind === 'stub' ? ', archived by ctxkit' : '';
    return `[message ${index} · tool result${tool}${archived}]`;
  }
  if (kind === 'summary') return `[message ${index} · earlier ctxkit summary of older messages]`;
  if (kind === 'note') return `[message ${index} · earlier ctxkit note on older messages]`;
  if (kind === 'reinjected') return `[message ${index} · context ctxkit restored after an earlier compaction]`;
  return `[message ${index} · ${message.role}]`;
}

/**
 * One message as a block of plain text for a summarizer: a label line (position, role, tool name),
 * the text, images as a one-line mention, and each tool call with its JSON arguments.
 */
export function renderMessage(message: Message, index: number): string {
  const lines = [label(message, index)];
  const text = contentText(message.content);
  if (text !== '') lines.push(text);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) lines.push(`→ tool call ${call.name} ${call.arguments}`);
  }
  return lines.join('\n');
}

/**
 * A boundary id that occurs nowhere in the data, so text inside cannot forge the end marker.
 * Derived from the data (the same request gets the same id), salted until it is absent.
 */
export function dataBoundary(data: string): string {
  for (let salt = 0; ; salt++) {
    const id = textHash(`${salt}:${data}`);
    if (!data.includes(id)) return id;
  }
}

/** The line that opens a data section with this boundary id. */
export function openMarker(id: string): string {
  return `<<<ctxkit-data ${id}>>>`;
}

/** The line that closes a data section with this boundary id. */
export function closeMarker(id: string): string {
  return `<<<end ctxkit-data ${id}>>>`;
}

/** Data between the two marker lines, under a title line. */
export function frameData(title: string, data: string, id: string): string {
  return `${title}\n${openMarker(id)}\n${data}\n${closeMarker(id)}`;
}
