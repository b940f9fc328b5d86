import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CtxkitError, type Message, parseJsonlTranscript } from '@ctxkit/core';

/** Said by tests that skip because the shared corpus is not there (a user's fresh clone). */
export const corpusMissingMessage = 'skipped: no corpus (the CTXKIT_CORPUS folder, ../shared/corpus beside the checkout, or corpus/ in the repository)';

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
 * The folder of the corpus (schemas, trajectories, errors), or undefined where none is found:
 * `CTXKIT_CORPUS` when set (and only it), else `../shared/corpus` beside the workspace root (where new
 * data arrives), else the copy vendored in the repository (`corpus/` at the workspace root).
 * @param from a folder inside the workspace to start from; the current directory by default
 */
export function corpusDir(from?: string): string | undefined {
  const fromEnv = process.env.CTXKIT_CORPUS;
  if (fromEnv) return existsSync(fromEnv) ? resolve(fromEnv) : undefined;
  const root = from !== undefined ? workspaceRoot(from) : (workspaceRoot(process.cwd()) ?? workspaceRoot(import.meta.dirname ?? process.cwd()));
  if (!root) return undefined;
  for (const candidate of [join(root, '..', 'shared', 'corpus'), join(root, 'corpus')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** The recorded runs in the corpus (file names, sorted), or an empty list where it is absent. */
export function listTrajectories(): string[] {
  const dir = corpusDir();
  return dir
    ? readdirSync(join(dir, 'trajectories'))
        .filter((file) => file.endsWith('.jsonl'))
        .sort()
    : [];
}

/**
 * Reads a recorded run: a path, or a file name inside the corpus's `trajectories/` folder.
 * @throws CtxkitError NOT_FOUND when the file is missing, INVALID_TRANSCRIPT for a bad line
 */
export function readTrajectory(file: string): Message[] {
  const dir = corpusDir();
  const path = existsSync(file) ? file : dir ? join(dir, 'trajectories', file) : file;
  if (!existsSync(path)) throw new CtxkitError({ code: 'NOT_FOUND', source: 'testkit', message: `no recorded run at ${path}` });
  return parseJsonlTranscript(readFileSync(path, 'utf8'), path);
}

/** Parses a recorded run (JSONL); the same as `parseJsonlTranscript` from @ctxkit/core. */
export const parseTrajectory = parseJsonlTranscript;
