import { readFileSync } from 'node:fs';
import { CtxkitError, type Message, parseJsonlTranscript } from '@ctxkit/core';

/** A mistake in how the command was called or in its input: exit code 2. */
export class UsageError extends CtxkitError {
  constructor(message: string) {
    super({ code: 'INVALID_ARGUMENT', source: 'cli', message });
    this.name = 'UsageError';
  }
}

/** Reads a file, or says which file could not be read and why. */
export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${path}: no such file` : code === 'EISDIR' ? `${path}: is a folder, not a file` : `${path}: cannot be read (${(error as Error).message})`);
  }
}

/** Parses a JSON file, naming the line and column of a syntax error. */
export function readJson(path: string): unknown {
  const text = readText(path);
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

/** Reads a transcript in JSONL (one message per line), naming the file and line of a bad line. */
export function readTranscript(path: string): Message[] {
  try {
    return parseJsonlTranscript(readText(path), path);
  } catch (error) {
    if (CtxkitError.isInstance(error, 'INVALID_TRANSCRIPT')) throw new UsageError(error.message.replace(/^\[ctxkit:[^\]]+\] /, ''));
    throw error;
  }
}

/** A whole number of tokens from an option, or a usage error naming the option. */
export function tokensOption(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required (a number of tokens, e.g. --${name} 128000)`);
    return fallback;
  }
  const parsed = Number(value.replace(/[_,]/g, '').replace(/k$/i, '000'));
  if (!Number.isFinite(parsed) || parsed < 0 || !Number.isInteger(parsed)) throw new UsageError(`--${name} must be a whole number of tokens, got ${JSON.stringify(value)}`);
  return parsed;
}
