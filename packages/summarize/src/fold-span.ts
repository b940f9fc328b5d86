import { CtxkitError, type Message, messageListProblem, safeCutIndex, type TierContext, textOf, type UserMessage } from '@ctxkit/core';
import { textHash } from './text-hash.ts';

/** The part of a transcript a folding tier may replace: `[start, end)`, after the task, before the protected turns. */
export interface FoldSpan {
  /** Index of the task (the first user message), or -1 when no user message comes before the protected turns. */
  taskIndex: number;
  start: number;
  end: number;
}

/**
 * Checks the transcript's shape and the engine's `protectedStart` (an integer within the transcript).
 * @throws CtxkitError INVALID_TRANSCRIPT for a transcript that is not an array of message objects; INVALID_ARGUMENT for the index
 */
export function assertProtectedStart(messages: readonly Message[], protectedStart: number, source: string): void {
  const problem = messageListProblem(messages);
  if (problem !== undefined) throw new CtxkitError({ code: 'INVALID_TRANSCRIPT', source, message: problem });
  if (!Number.isInteger(protectedStart) || protectedStart < 0 || protectedStart > messages.length) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source,
      message: `context.protectedStart must be an integer from 0 to ${messages.length} (the transcript's length), got ${String(protectedStart)}`,
    });
  }
}

/**
 * The span between the task and the protected recent messages, with both ends on round boundaries:
 * the start moves past tool results, the end moves back before an assistant message whose results
 * reach into the protected region, so no tool result is ever separated from its call.
 */
export function findFoldSpan(messages: readonly Message[], protectedStart: number): FoldSpan {
  const first = messages[0]?.role === 'system' ? 1 : 0;
  let taskIndex = -1;
  for (let index = first; index < protectedStart; index++) {
    if (messages[index]!.role === 'user') {
      taskIndex = index;
      break;
    }
  }
  const start = safeCutIndex(messages, taskIndex >= 0 ? taskIndex + 1 : first);
  let end = protectedStart;
  while (end > start && messages[end]?.role === 'tool') end--;
  return { taskIndex, start, end: Math.max(start, end) };
}

/** The span a summarizing tier would fold, or why there is nothing worth folding. */
export type SummarizableSpan = { skip: string } | { span: FoldSpan; folded: Message[]; spanTokens: number };

/**
 * The span between the task and the protected region, with its tokens (without the floor), or the reason
 * to skip: nothing there, only one ctxkit summary already, or fewer than `minSpanTokens` tokens.
 */
export function summarizableSpan(messages: readonly Message[], context: Pick<TierContext, 'protectedStart' | 'count' | 'floorTokens'>, minSpanTokens: number): SummarizableSpan {
  const span = findFoldSpan(messages, context.protectedStart);
  const folded = messages.slice(span.start, span.end);
  if (folded.length === 0) return { skip: 'nothing to summarize between the task and the protected recent messages' };
  if (folded.length === 1 && isCtxkitDigest(folded[0]!)) return { skip: 'the span is already a single ctxkit summary' };
  const spanTokens = context.count(folded) - context.floorTokens;
  if (spanTokens < minSpanTokens) return { skip: `the span holds ${formatCount(spanTokens)} tokens, under minSpanTokens (${formatCount(minSpanTokens)})` };
  return { span, folded, spanTokens };
}

/** True for a summary or factual note that ctxkit wrote earlier. */
export function isCtxkitDigest(message: Message): boolean {
  const kind = message.meta?.ctxkit?.kind;
  return kind === 'summary' || kind === 'note';
}

const headerPattern = /^\[ctxkit (?:summary|note) (?:of|on) ([\d,]+) earlier messages?/;

/**
 * How many conversation messages a message stands for: an earlier summary or note counts what it
 * replaced (read from its header), reinjected context counts none, anything else one.
 */
export function coveredMessages(message: Message): number {
  const kind = message.meta?.ctxkit?.kind;
  if (kind === 'reinjected') return 0;
  if (kind === 'summary' || kind === 'note') {
    const match = headerPattern.exec(textOf(message.content));
    if (match) return Number(match[1]!.replaceAll(',', ''));
  }
  return 1;
}

/** Counts every message a span stands for, earlier summaries included. */
export function coveredCount(span: readonly Message[]): number {
  return span.reduce((total, message) => total + coveredMessages(message), 0);
}

/** What {@link digestMessage} writes. */
export interface DigestMessageOptions {
  kind: 'summary' | 'note';
  /** The tier id, for `meta.ctxkit.by`. */
  by: string;
  /** The first line, saying ctxkit wrote it. */
  header: string;
  body: string;
  replaces: string[];
}

/**
 * The user message that stands for a folded span: a header line that says ctxkit wrote it, the body,
 * a stable id, and `meta.ctxkit` naming everything it replaces.
 */
export function digestMessage(options: DigestMessageOptions): UserMessage {
  const content = options.body === '' ? options.header : `${options.header}\n${options.body}`;
  return {
    role: 'user',
    id: `ctxkit-${options.kind}-${textHash(content)}`,
    content,
    meta: { ctxkit: { kind: options.kind, by: options.by, replaces: options.replaces } },
  };
}

/** Formats a whole number with thousands separators, the same everywhere (no locale surprises). */
export function formatCount(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
