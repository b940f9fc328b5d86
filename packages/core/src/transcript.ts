import { CtxkitError } from './ctxkit-error.ts';
import type { Message } from './message.ts';

/** One problem found in a transcript: which message, which field, what is wrong. */
export interface TranscriptIssue {
  index: number;
  /** A path inside the message: `role`, `content[2].type`, `toolCalls[0].arguments`. */
  field: string;
  problem: string;
}

const roles = new Set(['system', 'user', 'assistant', 'tool']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates a message's content (a string, or text and image parts), adding what is wrong to `issues`. */
function validateContent(content: unknown, index: number, issues: TranscriptIssue[]): void {
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) {
    issues.push({ index, field: 'content', problem: `must be a string or an array of parts, got ${describe(content)}` });
    return;
  }
  content.forEach((part: unknown, partIndex) => {
    const field = `content[${partIndex}]`;
    if (!isRecord(part)) {
      issues.push({ index, field, problem: `must be an object, got ${describe(part)}` });
    } else if (part.type === 'text') {
      if (typeof part.text !== 'string') issues.push({ index, field: `${field}.text`, problem: `must be a string, got ${describe(part.text)}` });
    } else if (part.type === 'image') {
      if (typeof part.mediaType !== 'string' || part.mediaType === '') {
        issues.push({ index, field: `${field}.mediaType`, problem: 'must be a non-empty string such as image/png' });
      }
      if (typeof part.data !== 'string' && typeof part.url !== 'string') {
        issues.push({ index, field, problem: 'an image part needs data (base64) or url' });
      }
    } else {
      issues.push({ index, field: `${field}.type`, problem: `unknown part type ${JSON.stringify(part.type)}; expected text or image` });
    }
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

/**
 * Validates a transcript that grows step by step, checking only the messages added since the last call.
 * When an earlier message was replaced (a compaction, an edit) it starts over from the beginning.
 * Treat messages as immutable values: a changed message must be a new object.
 */
export interface TranscriptValidator {
  /** Problems among the messages not checked before (all of them after a change earlier on). */
  check(messages: readonly unknown[]): TranscriptIssue[];
}

/** What the validator remembers of the tool calls it has seen, so each step checks only new messages. */
interface ToolCallLedger {
  /** The index of the assistant message that made each call. */
  callOwner: Map<string, number>;
  /** Calls that have their result. */
  answered: Set<string>;
  /** Calls of the assistant message whose tool-result block we are in; results elsewhere are orphans. */
  openCalls: Set<string>;
}

function emptyLedger(): ToolCallLedger {
  return { callOwner: new Map(), answered: new Set(), openCalls: new Set() };
}

/** Validates a tool result: it must answer a call of the assistant message right before its block, once. */
function validateToolResult(message: Record<string, unknown>, index: number, ledger: ToolCallLedger, issues: TranscriptIssue[]): void {
  const callId = message.toolCallId;
  if (typeof callId !== 'string' || callId === '') {
    issues.push({ index, field: 'toolCallId', problem: 'must be a non-empty string' });
  } else if (!ledger.openCalls.has(callId)) {
    const owner = ledger.callOwner.get(callId);
    const problem = ledger.answered.has(callId)
      ? `answers call ${JSON.stringify(callId)} a second time`
      : owner === undefined
        ? `answers call ${JSON.stringify(callId)}, which no earlier assistant message made`
        : `answers call ${JSON.stringify(callId)} of message ${owner}, but does not follow it (results must come right after the assistant message that called)`;
    issues.push({ index, field: 'toolCallId', problem });
  } else {
    ledger.openCalls.delete(callId);
    ledger.answered.add(callId);
  }
}

/** Validates an assistant message's tool calls (name, JSON-text arguments, a unique id) and opens them for results. */
function validateToolCalls(toolCalls: unknown, index: number, ledger: ToolCallLedger, issues: TranscriptIssue[]): void {
  if (!Array.isArray(toolCalls)) {
    issues.push({ index, field: 'toolCalls', problem: `must be an array, got ${describe(toolCalls)}` });
    return;
  }
  toolCalls.forEach((call: unknown, callIndex) => {
    const field = `toolCalls[${callIndex}]`;
    if (!isRecord(call)) {
      issues.push({ index, field, problem: `must be an object, got ${describe(call)}` });
      return;
    }
    if (typeof call.name !== 'string' || call.name === '') issues.push({ index, field: `${field}.name`, problem: 'must be a non-empty string' });
    if (typeof call.arguments !== 'string') {
      issues.push({ index, field: `${field}.arguments`, problem: `must be the JSON text as a string, got ${describe(call.arguments)}` });
    }
    if (typeof call.id !== 'string' || call.id === '') {
      issues.push({ index, field: `${field}.id`, problem: 'must be a non-empty string' });
    } else if (ledger.callOwner.has(call.id)) {
      issues.push({ index, field: `${field}.id`, problem: `tool call id ${JSON.stringify(call.id)} is used twice (first in message ${ledger.callOwner.get(call.id)})` });
    } else {
      ledger.callOwner.set(call.id, index);
      ledger.openCalls.add(call.id);
    }
  });
}

/**
 * Validates the role of a message, adding what is wrong to `issues`; returns the role when it is one
 * ctxkit knows, undefined otherwise.
 */
function validateRole(message: Record<string, unknown>, index: number, issues: TranscriptIssue[]): string | undefined {
  const role = message.role;
  if (typeof role !== 'string' || role === '') {
    issues.push({ index, field: 'role', problem: 'is empty; expected system, user, assistant or tool' });
    return undefined;
  }
  if (!roles.has(role)) {
    issues.push({ index, field: 'role', problem: `unknown role ${JSON.stringify(role)}; expected system, user, assistant or tool` });
    return undefined;
  }
  return role;
}

/** Validates the message at `index`, given the calls seen before it, adding what is wrong to `issues`. */
function validateMessage(message: unknown, index: number, ledger: ToolCallLedger, issues: TranscriptIssue[]): void {
  if (!isRecord(message)) {
    issues.push({ index, field: '', problem: `must be an object, got ${describe(message)}` });
    ledger.openCalls = new Set();
    return;
  }
  const role = validateRole(message, index, issues);
  if (role === undefined) {
    ledger.openCalls = new Set();
    return;
  }
  if (message.id !== undefined && typeof message.id !== 'string') issues.push({ index, field: 'id', problem: `must be a string, got ${describe(message.id)}` });
  if (role === 'system') {
    if (index !== 0) issues.push({ index, field: 'role', problem: 'a system message must be the first message' });
    if (typeof message.content !== 'string') issues.push({ index, field: 'content', problem: `a system message's content must be a string, got ${describe(message.content)}` });
    ledger.openCalls = new Set();
    return;
  }
  validateContent(message.content, index, issues);
  if (role === 'tool') {
    validateToolResult(message, index, ledger, issues);
    return;
  }
  ledger.openCalls = new Set();
  if (role === 'assistant' && message.toolCalls !== undefined) validateToolCalls(message.toolCalls, index, ledger, issues);
}

/** True when `messages` extends `checked`: every message checked before is still there, the same object. */
function extendsChecked(checked: readonly unknown[], messages: readonly unknown[]): boolean {
  // Pointer comparisons only: a replaced message is a new object, so this finds any change before the end.
  if (checked.length > messages.length) return false;
  for (let index = 0; index < checked.length; index++) if (messages[index] !== checked[index]) return false;
  return true;
}

/** Creates a {@link TranscriptValidator}: the incremental form of {@link validateTranscript}. */
export function createTranscriptValidator(): TranscriptValidator {
  let ledger = emptyLedger();
  let checked: unknown[] = [];
  return {
    check(messages) {
      if (!Array.isArray(messages)) return [{ index: -1, field: '', problem: `a transcript must be an array of messages, got ${describe(messages)}` }];
      if (!extendsChecked(checked, messages)) {
        ledger = emptyLedger();
        checked = [];
      }
      const issues: TranscriptIssue[] = [];
      for (let index = checked.length; index < messages.length; index++) {
        validateMessage(messages[index], index, ledger, issues);
        checked.push(messages[index]);
      }
      return issues;
    },
  };
}

/**
 * Every problem in a transcript, each with its message index and field; an empty array when it is valid.
 * Checks roles, content shapes, the system message being first, tool-call ids (string, unique) and
 * `arguments` (a string), and that every tool result follows the assistant message that called it,
 * in the block of tool results right after it. A call without a result is allowed (the last call of a run).
 */
export function validateTranscript(messages: readonly unknown[]): TranscriptIssue[] {
  return createTranscriptValidator().check(messages);
}

/**
 * Throws a `CtxkitError` with code `INVALID_TRANSCRIPT` listing every problem (also in `error.details`)
 * when the transcript is not valid; returns it typed as messages otherwise.
 * @throws CtxkitError INVALID_TRANSCRIPT
 */
export function assertValidTranscript(messages: readonly unknown[], source = 'core'): readonly Message[] {
  const issues = validateTranscript(messages);
  if (issues.length > 0) {
    const shown = issues.slice(0, 5).map((issue) => (issue.index < 0 ? issue.problem : `message ${issue.index}${issue.field ? ` ${issue.field}` : ''}: ${issue.problem}`));
    const more = issues.length > 5 ? `; and ${issues.length - 5} more` : '';
    throw new CtxkitError({
      code: 'INVALID_TRANSCRIPT',
      source,
      message: `invalid transcript: ${shown.join('; ')}${more}`,
      details: issues,
    });
  }
  return messages as readonly Message[];
}

/** A span of messages `[start, end)`. */
export interface MessageSpan {
  start: number;
  end: number;
}

/**
 * Splits a transcript into turns. A turn starts at a user message and holds everything up to the next
 * one (the assistant replies and their tool rounds). The system message belongs to no turn; messages
 * between it and the first user message form a turn of their own.
 */
export function segmentTurns(messages: readonly Message[]): MessageSpan[] {
  const turns: MessageSpan[] = [];
  const first = messages[0]?.role === 'system' ? 1 : 0;
  let start = first;
  for (let index = first + 1; index < messages.length; index++) {
    if (messages[index]!.role === 'user') {
      turns.push({ start, end: index });
      start = index;
    }
  }
  if (start < messages.length) turns.push({ start, end: messages.length });
  return turns;
}

/**
 * Splits a transcript into rounds: a user message alone, or an assistant message with the tool results
 * that answer it. A round is the smallest span that can be kept or removed without orphaning a tool result.
 */
export function segmentRounds(messages: readonly Message[]): MessageSpan[] {
  const rounds: MessageSpan[] = [];
  const first = messages[0]?.role === 'system' ? 1 : 0;
  let start = first;
  for (let index = first + 1; index <= messages.length; index++) {
    if (index === messages.length || messages[index]!.role !== 'tool') {
      rounds.push({ start, end: index });
      start = index;
    }
  }
  return rounds.filter((round) => round.end > round.start);
}

/**
 * The index where the last `keepTurns` turns begin: everything from there on is kept verbatim.
 * Returns `messages.length` for 0, and the first non-system index when there are fewer turns.
 */
export function recentTurnsStart(messages: readonly Message[], keepTurns: number): number {
  if (keepTurns <= 0) return messages.length;
  const turns = segmentTurns(messages);
  const kept = turns.slice(-keepTurns)[0];
  return kept ? kept.start : messages.length;
}

/**
 * The nearest index at or after `index` where a cut leaves no tool result without its call:
 * it moves forward past tool results. Spans cut at such indices keep tool-call pairs intact.
 */
export function safeCutIndex(messages: readonly Message[], index: number): number {
  let cut = Math.max(0, index);
  while (cut < messages.length && messages[cut]!.role === 'tool') cut++;
  return cut;
}

/**
 * What makes `messages` unusable to a tier (or any step that walks a transcript), or undefined: not an array, or an entry that is not a
 * message object with a string role. A tier run on its own gets this instead of a TypeError from inside.
 */
export function messageListProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return `messages must be an array of messages, got ${messages === null ? 'null' : typeof messages}`;
  const index = messages.findIndex((message) => typeof message !== 'object' || message === null || typeof (message as { role?: unknown }).role !== 'string');
  if (index < 0) return undefined;
  const message: unknown = messages[index];
  return `message ${index}: must be a message object with a string role, got ${message === null ? 'null' : typeof message === 'object' ? 'an object without one' : typeof message}`;
}
