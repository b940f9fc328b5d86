import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { CtxkitError, type Message, parseJsonlTranscript, validateTranscript } from '@ctxkit/core';

/** A mistake in how the command was called or in its input: exit code 2. */
export class UsageError extends CtxkitError {
  constructor(message: string) {
    super({ code: 'INVALID_ARGUMENT', source: 'cli', message });
    this.name = 'UsageError';
  }
}

/**
 * Reads a file (without a leading UTF-8 byte order mark), or says which file could not be read and why.
 * Bytes that are not UTF-8 (a Latin-1 export, say) are read as U+FFFD and reported through `warn`,
 * naming the first line that holds one.
 */
export function readText(path: string, warn?: (message: string) => void): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${path}: no such file` : code === 'EISDIR' ? `${path}: is a folder, not a file` : `${path}: cannot be read (${(error as Error).message})`);
  }
  const text = bytes.toString('utf8');
  if (warn && !isUtf8(bytes)) {
    const line = text.slice(0, text.indexOf('\uFFFD')).split('\n').length;
    warn(`${path}:${line}: not valid UTF-8 (the first such line); the bytes that are not were read as U+FFFD`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses a JSON file, naming the line and column of a syntax error; bytes that are not UTF-8 are reported through `warn`. */
export function readJson(path: string, warn?: (message: string) => void): unknown {
  const text = readText(path, warn);
  if (text.trim() === '') throw new UsageError(`${path}: the file is empty; expected JSON`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    if (position !== undefined) {
      const before = text.slice(0, Number(position));
      const line = before.split('\n').length;
      const column = Number(position) - before.lastIndexOf('\n');
      throw new UsageError(`${path}:${line}:${column}: invalid JSON (${message.replace(/ in JSON at position \d+.*$/, '')})`);
    }
    throw new UsageError(`${path}: invalid JSON (${message})`);
  }
}

const recordedField = (field: string) => field.replace(/^toolCalls/, 'tool_calls').replace(/^toolCallId/, 'tool_call_id');

/**
 * Reads a transcript in JSONL (one message per line) and checks it as every command does: a bad line,
 * an empty file, an orphan tool result, a duplicate call id, a system message not first or an
 * unsupported content part is an error naming `file:line`. Tool-call arguments that are not valid JSON
 * are kept (counted as the text they are) and reported through `warn`.
 * @throws CtxkitError INVALID_TRANSCRIPT (exit code 2), its message starting with `file:line:`
 */
export function readTranscript(path: string, warn?: (message: string) => void): Message[] {
  const text = readText(path, warn);
  const invalid = (message: string, details?: unknown) => new CtxkitError({ code: 'INVALID_TRANSCRIPT', source: 'cli', message, ...(details ? { details } : {}) });
  if (text.trim() === '') throw invalid(`${path}: the file is empty; expected one JSON message per line`);
  const messages = parseJsonlTranscript(text, path);
  // parseJsonlTranscript skips blank lines: line numbers of the messages, in order.
  const lines: number[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() !== '') lines.push(index + 1);
  });
  const lineOf = (index: number) => lines[index] ?? index + 1;
  const issues = validateTranscript(messages);
  if (issues.length > 0) {
    const shown = issues.slice(0, 3).map((issue) => {
      const problem = issue.problem.replace(/\(first in message (\d+)\)/, (_, index: string) => `(first on line ${lineOf(Number(index))})`);
      return `${path}:${lineOf(issue.index)}: ${issue.field ? `${recordedField(issue.field)} ` : ''}${problem}`;
    });
    throw invalid(`${shown.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`, issues);
  }
  if (warn) {
    messages.forEach((message, index) => {
      if (message.role !== 'assistant') return;
      for (const call of message.toolCalls ?? []) {
        try {
          JSON.parse(call.arguments);
        } catch {
          warn(`${path}:${lineOf(index)}: the arguments of tool call ${JSON.stringify(call.id)} (${call.name}) are not valid JSON; counted as the text they are`);
        }
      }
    });
  }
  return messages;
}

/** The largest number of tokens an option takes: 1,000,000,000 (no model's window comes near it). */
export const maxTokensOption = 1_000_000_000;

/**
 * A whole number of tokens from an option (`128000`, `128_000`, `128,000` or `128k`), or a usage error
 * naming the option. Exponents (`1e5`), hexadecimal (`0x10000`) and numbers above {@link maxTokensOption}
 * are refused.
 * @throws UsageError when the value is not such a number
 */
export function tokensOption(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required (a number of tokens, e.g. --${name} 128000)`);
    return fallback;
  }
  const digits = value.trim().replace(/[_,]/g, '').replace(/k$/i, '000');
  const parsed = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
  if (!Number.isSafeInteger(parsed)) throw new UsageError(`--${name} must be a whole number of tokens (e.g. 128000 or 128k), got ${JSON.stringify(value)}`);
  if (parsed > maxTokensOption) throw new UsageError(`--${name} must be at most ${maxTokensOption.toLocaleString('en-US')} tokens, got ${JSON.stringify(value)}`);
  return parsed;
}

/**
 * The context window from `--window`: {@link tokensOption}, and above zero.
 * @throws UsageError when it is missing (without a fallback), not a number, or zero
 */
export function windowOption(value: string | undefined, fallback?: number): number {
  const window = tokensOption('window', value, fallback);
  if (window === 0) throw new UsageError('--window must be above zero (the context window in tokens, e.g. --window 128000)');
  return window;
}

/**
 * `simulate`'s `--window`: windows separated by commas (`32000,64000`), each a {@link windowOption}. A value
 * written as one number with thousands commas (`128,000`, `8,192`) is refused: `threshold` reads it as one
 * window, and split here it would be `128` and `0`, or for `128,500` silently two tiny windows.
 * @throws UsageError when a window is not valid, or the value is such a number
 */
export function windowsOption(value: string | undefined, fallback: number): number[] {
  if (value !== undefined && /^\s*\d{1,3}(,\d{3})+\s*$/.test(value))
    throw new UsageError(
      `--window ${JSON.stringify(value)} is ambiguous in simulate, where commas separate windows: write one window as ${value.replace(/[\s,]/g, '')} or ${value.trim().replace(/,/g, '_')}, or several windows with a space after each comma ("32000, 64000")`,
    );
  return value === undefined ? [windowOption(undefined, fallback)] : value.split(',').map((part) => windowOption(part.trim()));
}

/**
 * `--max-output` when given: {@link tokensOption}, and smaller than every window, since a request must
 * leave the answer its room. Undefined when it is not given.
 * @throws UsageError when it is not a number of tokens, or not smaller than a window
 */
export function maxOutputOption(value: string | undefined, windows: readonly number[]): number | undefined {
  if (value === undefined) return undefined;
  const maxOutputTokens = tokensOption('max-output', value);
  const window = windows.find((candidate) => maxOutputTokens >= candidate);
  if (window !== undefined) {
    throw new UsageError(`--max-output (${maxOutputTokens.toLocaleString('en-US')}) must be smaller than --window (${window.toLocaleString('en-US')})`);
  }
  return maxOutputTokens;
}
