import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CtxkitError, type Message, type ToolCall } from '@ctxkit/core';

/** Said by tests that skip because the shared corpus is not there (a user's fresh clone). */
export const corpusMissingMessage =
  'skipped: the shared corpus (../shared/corpus beside the checkout, or the CTXKIT_CORPUS folder) is absent';

function workspaceRoot(from: string): string | undefined {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The folder of the shared corpus (schemas, trajectories, errors), or undefined where it is absent:
 * `CTXKIT_CORPUS` when set, else `../shared/corpus` beside the workspace root.
 */
export function corpusDir(): string | undefined {
  const fromEnv = process.env.CTXKIT_CORPUS;
  if (fromEnv) return existsSync(fromEnv) ? resolve(fromEnv) : undefined;
  const root = workspaceRoot(process.cwd()) ?? workspaceRoot(import.meta.dirname ?? process.cwd());
  const candidate = root && join(root, '..', 'shared', 'corpus');
  return candidate && existsSync(candidate) ? candidate : undefined;
}

/** The recorded runs in the corpus (file names, sorted), or an empty list where it is absent. */
export function listTrajectories(): string[] {
  const dir = corpusDir();
  return dir ? readdirSync(join(dir, 'trajectories')).filter((file) => file.endsWith('.jsonl')).sort() : [];
}

interface RecordedCall {
  id?: unknown;
  name?: unknown;
  arguments?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

function fail(source: string, line: number, message: string, cause?: unknown): never {
  throw new CtxkitError({ code: 'INVALID_TRANSCRIPT', source: 'testkit', message: `${source}:${line}: ${message}`, cause });
}

/**
 * Parses a recorded run in the corpus format, one JSON message per line: `role`, `content`,
 * `tool_calls: [{ id, name, arguments }]` (arguments an object or JSON text; OpenAI's `function`
 * wrapper accepted) and `tool_call_id`. Blank lines are skipped.
 * @throws CtxkitError INVALID_TRANSCRIPT naming the file and line of the first bad line
 */
export function parseTrajectory(text: string, source = 'transcript'): Message[] {
  const messages: Message[] = [];
  const callNames = new Map<string, string>();
  text.split('\n').forEach((raw, lineIndex) => {
    const line = lineIndex + 1;
    if (raw.trim() === '') return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(raw) as Record<string, unknown>;
    } catch (error) {
      fail(source, line, `not valid JSON (${(error as Error).message})`, error);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) fail(source, line, 'expected a JSON object per line');
    const content = record.content ?? '';
    if (typeof content !== 'string' && !Array.isArray(content)) fail(source, line, 'content must be a string, an array of parts, or null');
    switch (record.role) {
      case 'system':
        if (typeof content !== 'string') fail(source, line, 'a system message needs string content');
        messages.push({ role: 'system', content });
        return;
      case 'user':
        messages.push({ role: 'user', content: content as Message['content'] & string });
        return;
      case 'assistant': {
        const calls = record.tool_calls;
        if (calls !== undefined && calls !== null && !Array.isArray(calls)) fail(source, line, 'tool_calls must be an array');
        const toolCalls: ToolCall[] = ((calls as RecordedCall[] | null | undefined) ?? []).map((call, index) => {
          const name = call.name ?? call.function?.name;
          const args = call.arguments ?? call.function?.arguments ?? '{}';
          if (typeof call.id !== 'string' || typeof name !== 'string') fail(source, line, `tool_calls[${index}] needs a string id and name`);
          callNames.set(call.id, name);
          return { id: call.id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
        });
        messages.push(toolCalls.length > 0 ? { role: 'assistant', content: content as string, toolCalls } : { role: 'assistant', content: content as string });
        return;
      }
      case 'tool': {
        const id = record.tool_call_id;
        if (typeof id !== 'string') fail(source, line, 'a tool message needs a string tool_call_id');
        const toolName = typeof record.name === 'string' ? record.name : callNames.get(id);
        messages.push({ role: 'tool', toolCallId: id, ...(toolName ? { toolName } : {}), content: content as string });
        return;
      }
      default:
        fail(source, line, `unknown role ${JSON.stringify(record.role)}; expected system, user, assistant or tool`);
    }
  });
  return messages;
}

/**
 * Reads a recorded run: a path, or a file name inside the corpus's `trajectories/` folder.
 * @throws CtxkitError NOT_FOUND when the file is missing, INVALID_TRANSCRIPT for a bad line
 */
export function readTrajectory(file: string): Message[] {
  const dir = corpusDir();
  const path = existsSync(file) ? file : dir ? join(dir, 'trajectories', file) : file;
  if (!existsSync(path)) throw new CtxkitError({ code: 'NOT_FOUND', source: 'testkit', message: `no recorded run at ${path}` });
  return parseTrajectory(readFileSync(path, 'utf8'), path);
}
