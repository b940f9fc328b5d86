import { editedFiles, type Message, type ReinjectionBlock, type ReinjectionSourcePlugin, textOf } from '@ctxkit/core';

const plugin = <Id extends string>(id: Id, collect: ReinjectionSourcePlugin['collect']): ReinjectionSourcePlugin<Id> => ({
  specificationVersion: 'v1',
  kind: 'reinjection-source',
  id,
  collect,
});

function firstUser(messages: readonly Message[]): Message | undefined {
  return messages.find((message) => message.role === 'user' && message.meta?.ctxkit === undefined);
}

/**
 * Puts the task (the first user message) back verbatim when the compaction folded it away; says
 * nothing while the compacted transcript still holds it unchanged.
 */
export function taskSource(): ReinjectionSourcePlugin<'task'> {
  return plugin('task', async ({ original, compacted }) => {
    const task = firstUser(original);
    if (!task) return undefined;
    const text = textOf(task.content);
    if (compacted.some((message) => message === task || (message.role === 'user' && textOf(message.content) === text))) return undefined;
    return { title: 'Task (verbatim)', text };
  });
}

/** A goal criterion, open until `done`. */
export interface GoalCriterion {
  text: string;
  done?: boolean;
}

/**
 * Puts back the open goal criteria (acceptance criteria, definition of done) the host keeps.
 * @example goalCriteriaSource(() => [{ text: 'all tests pass' }, { text: 'no new lint errors', done: true }])
 */
export function goalCriteriaSource(criteria: readonly (string | GoalCriterion)[] | (() => readonly (string | GoalCriterion)[] | undefined)): ReinjectionSourcePlugin<'goal-criteria'> {
  return plugin('goal-criteria', async () => {
    const list = (typeof criteria === 'function' ? criteria() : criteria) ?? [];
    const open = list.map((entry) => (typeof entry === 'string' ? { text: entry } : entry)).filter((entry) => !entry.done);
    return open.length === 0 ? undefined : { title: 'Open goal criteria', text: open.map((entry) => `- [ ] ${entry.text}`).join('\n') };
  });
}

const checklistLine = /^\s*(?:[-*]\s+\[[ xX]\]\s+|\d+[.)]\s+)\S/;

/**
 * Puts back the active plan: the host's, when `plan` is given, else the most recent assistant message
 * that holds a checklist or a numbered list of at least two steps.
 */
export function planSource(plan?: () => string | undefined): ReinjectionSourcePlugin<'plan'> {
  return plugin('plan', async ({ original }) => {
    let text = plan?.();
    if (text === undefined) {
      for (let index = original.length - 1; index >= 0 && text === undefined; index--) {
        const message = original[index]!;
        if (message.role !== 'assistant') continue;
        const lines = textOf(message.content)
          .split('\n')
          .filter((line) => checklistLine.test(line));
        if (lines.length >= 2) text = lines.join('\n');
      }
    }
    return text ? { title: 'Active plan', text } : undefined;
  });
}

/** A todo with its status, as agents keep them (`pending`, `in_progress`, `completed`). */
export interface Todo {
  content: string;
  status: string;
}

function todosFromCalls(messages: readonly Message[]): Todo[] | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    for (const call of [...(message.toolCalls ?? [])].reverse()) {
      if (!/todo/i.test(call.name)) continue;
      try {
        const todos = (JSON.parse(call.arguments) as { todos?: unknown }).todos;
        if (Array.isArray(todos)) {
          return todos.flatMap((todo) =>
            todo && typeof todo === 'object' && typeof (todo as Todo).content === 'string' ? [{ content: (todo as Todo).content, status: String((todo as Todo).status ?? 'pending') }] : [],
          );
        }
      } catch {
        // arguments that are not JSON carry no todo list
      }
    }
  }
  return undefined;
}

/**
 * Puts back the todo list with each item's status: the host's, when `todos` is given, else the latest
 * call to a todo tool (`TodoWrite`, `todo_write`, … with a `todos` array) in the transcript.
 */
export function todosSource(todos?: () => readonly Todo[] | undefined): ReinjectionSourcePlugin<'todos'> {
  return plugin('todos', async ({ original }) => {
    const list = todos?.() ?? todosFromCalls(original);
    if (!list || list.length === 0) return undefined;
    return { title: 'Todos', text: list.map((todo) => `- [${todo.status === 'completed' ? 'x' : ' '}] ${todo.content} (${todo.status})`).join('\n') };
  });
}

/** The files a run edited, most recent first (core's one detector, shared with tier-trim's notes). */
export { editedFiles };

/** Options for {@link editedFilesSource}. */
export interface EditedFilesSourceOptions {
  /** Most files to put back. @default 5 */
  maxFiles?: number;
  /** Reads a file's current content. @default node:fs/promises readFile, relative to `cwd` */
  readFile?: (path: string) => Promise<string>;
  /** Folder relative paths are read from. @default process.cwd() */
  cwd?: string;
  /** Overrides how edited paths are found. @default editedFiles */
  find?: (messages: readonly Message[]) => string[];
}

/**
 * Puts back the current content of up to 5 files the run edited, re-read from disk at compaction time
 * (not a remembered copy, which may be stale). A file that cannot be read is named with the reason.
 */
export function editedFilesSource(options: EditedFilesSourceOptions = {}): ReinjectionSourcePlugin<'edited-files'> {
  const { maxFiles = 5, find = editedFiles } = options;
  const readFile =
    options.readFile ??
    (async (path: string) => {
      const [{ readFile: read }, { resolve }] = await Promise.all([import('node:fs/promises'), import('node:path')]);
      return read(resolve(options.cwd ?? process.cwd(), path), 'utf8');
    });
  return plugin('edited-files', async ({ original }) => {
    const paths = find(original).slice(0, maxFiles);
    const blocks: ReinjectionBlock[] = [];
    for (const path of paths) {
      let text: string;
      try {
        text = `\`\`\`\n${await readFile(path)}\n\`\`\``;
      } catch (error) {
        text = `(could not be read now: ${error instanceof Error ? error.message : String(error)})`;
      }
      blocks.push({ title: `Edited file ${path} (current content, re-read from disk)`, text });
    }
    return blocks;
  });
}
