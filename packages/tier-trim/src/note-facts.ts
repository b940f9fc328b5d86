import { type Message, parseToolArguments, textOf, toolCallFiles } from '@ctxkit/core';
import { extractNames } from '@ctxkit/summarize';
import { errorLines, exitStatus } from './tool-output.ts';

/** What a factual note records about a span of messages, in the order things happened. */
export interface NoteFacts {
  /** Conversation messages the note stands for (earlier notes and summaries count what they covered). */
  messages: number;
  /** Paths read (or run), most recently touched last. */
  filesRead: string[];
  /** Paths created, changed or deleted, most recently touched last. */
  filesWritten: string[];
  /** Shell commands, one line each, with the exit status where the result shows it. */
  commands: string[];
  /** Calls of other tools, with compact arguments. */
  toolCalls: string[];
  /** Error lines seen in results, each with the command or tool it came from. */
  errors: string[];
  /** What the user said in the span (follow-ups, answers, constraints). */
  userMessages: string[];
  /** Restore handles of archived tool results (microcompaction stubs) in the span. */
  archived: string[];
  /** Bodies of earlier model-written summaries folded into this span. */
  earlierSummaries: string[];
  /** The last plan the assistant stated: its last text, or its last `think` thought. */
  lastPlan?: string;
  /**
   * Names the span mentioned (paths, identifiers, line numbers; see `extractNames` in @ctxkit/summarize),
   * each with how often and how late (message position; earlier notes count as their position) it was seen.
   */
  names: Map<string, { count: number; last: number }>;
}

/** Section headings of the note, in the order they are written; `collectFacts` reads them back from earlier notes. */
export const noteSections = {
  earlierSummaries: 'Earlier summary',
  userMessages: 'User messages',
  filesWritten: 'Files written',
  filesRead: 'Files read',
  commands: 'Commands run',
  toolCalls: 'Tool calls',
  errors: 'Errors seen',
  archived: 'Archived tool results',
  names: 'Names seen',
  lastPlan: 'Last plan',
} as const;

type ListKey = 'filesRead' | 'filesWritten' | 'commands' | 'toolCalls' | 'errors' | 'userMessages' | 'archived';

/** Collapses whitespace and cuts to `limit` characters with an ellipsis. */
export function clip(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, Math.max(0, limit - 1)).trimEnd()}…` : flat;
}

/** Every string in a parsed value (the text of a call's arguments without their keys and escapes). */
function stringValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringValues);
  if (isRecord(value)) return Object.values(value).flatMap(stringValues);
  return typeof value === 'number' ? [String(value)] : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstLine(command: string): string {
  const lines = command.trim().split('\n');
  return lines.length > 1 ? `${lines[0]!.trimEnd()} …` : lines[0]!;
}

function pushRecent(list: string[], item: string): void {
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
  list.push(item);
}

function parseEarlierNote(text: string, facts: NoteFacts, position: number): void {
  const keys = Object.entries(noteSections) as [keyof typeof noteSections, string][];
  let current: keyof typeof noteSections | undefined;
  const prose: string[] = [];
  const flush = () => {
    if (current === 'earlierSummaries' && prose.length > 0) facts.earlierSummaries.push(prose.join('\n').trim());
    if (current === 'lastPlan' && prose.length > 0) facts.lastPlan = prose.join('\n').trim();
    prose.length = 0;
  };
  for (const line of text.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) {
      flush();
      current = keys.find(([, title]) => title === heading[1]!.trim())?.[0];
      continue;
    }
    if (current === undefined) continue;
    if (current === 'names') {
      // An earlier note's names are read back as seen once more, where that note stands.
      for (const name of line.split(', ')) if (name.trim() !== '') facts.names.set(name.trim(), { count: (facts.names.get(name.trim())?.count ?? 0) + 1, last: position });
    } else if (current === 'earlierSummaries' || current === 'lastPlan') {
      prose.push(line);
    } else if (line.startsWith('- ') && !line.startsWith('- … ') && !line.startsWith('- (')) {
      const item = line.slice(2);
      // User messages are written quoted; read them back without the quotes so they are not doubled.
      pushRecent(facts[current], current === 'userMessages' ? item.replace(/^"([\s\S]*)"$/, '$1') : item);
    }
  }
  flush();
}

/**
 * The facts of a span, without any model: files read and written (from path arguments, editor
 * commands and shell commands), commands with their exit status, other tool calls, error lines,
 * user messages, archived results, earlier summaries (merged, and earlier notes read back), and the
 * last plan. Deterministic.
 */
export function collectFacts(messages: readonly Message[]): NoteFacts {
  const facts: NoteFacts = {
    messages: 0,
    filesRead: [],
    filesWritten: [],
    commands: [],
    toolCalls: [],
    errors: [],
    userMessages: [],
    archived: [],
    earlierSummaries: [],
    names: new Map(),
  };
  const noteName = (name: string, position: number, count = 1) => {
    const seen = facts.names.get(name);
    if (seen) {
      seen.count += count;
      seen.last = Math.max(seen.last, position);
    } else facts.names.set(name, { count, last: position });
  };
  let position = 0;
  interface Pending {
    list?: ListKey;
    at?: number;
    origin: string;
    sweEdit?: boolean;
  }
  const pending = new Map<string, Pending>();
  let openFile: string | undefined;

  for (const message of messages) {
    const kind = message.meta?.ctxkit?.kind;
    const text = textOf(message.content);
    position += 1;
    if (kind === 'reinjected') continue;
    if (kind === 'note') {
      const count = /^\[ctxkit note on ([\d,]+) earlier message/.exec(text);
      facts.messages += count ? Number(count[1]!.replaceAll(',', '')) : 1;
      parseEarlierNote(text, facts, position);
      continue;
    }
    const said = message.role === 'assistant' ? [text, ...(message.toolCalls ?? []).flatMap((call) => stringValues(parseToolArguments(call.arguments) ?? call.arguments))].join('\n') : text;
    for (const [name, count] of extractNames(said)) noteName(name, position, count);
    if (kind === 'summary') {
      const count = /^\[ctxkit summary of ([\d,]+) earlier message/.exec(text);
      facts.messages += count ? Number(count[1]!.replaceAll(',', '')) : 1;
      facts.earlierSummaries.push(text.replace(/^\[ctxkit[^\n]*\]\n?/, '').trim());
      continue;
    }
    facts.messages += 1;

    if (message.role === 'user') {
      if (text.trim() !== '') facts.userMessages.push(clip(text, 4_000));
    } else if (message.role === 'assistant') {
      if (text.trim() !== '') facts.lastPlan = text.trim();
      for (const call of message.toolCalls ?? []) {
        const args = parseToolArguments(call.arguments);
        const files = toolCallFiles(call, args);
        if (files?.kind === 'shell') {
          const { command, sweEdit } = files;
          for (const path of files.read) pushRecent(facts.filesRead, path);
          for (const path of files.written) pushRecent(facts.filesWritten, path);
          facts.commands.push(`\`${clip(firstLine(command), 160)}\``);
          pending.set(call.id, { list: 'commands', at: facts.commands.length - 1, origin: `\`${clip(firstLine(command), 60)}\``, sweEdit });
          continue;
        }
        if (isRecord(args) && typeof args.thought === 'string' && /think|reason|plan/i.test(call.name)) {
          facts.lastPlan = args.thought.trim();
          continue;
        }
        if (files) {
          for (const path of files.read) pushRecent(facts.filesRead, path);
          for (const path of files.written) pushRecent(facts.filesWritten, path);
          pending.set(call.id, { origin: `${call.name} ${clip(files.paths[0]!, 60)}` });
          continue;
        }
        const shown = args === undefined ? call.arguments : JSON.stringify(args);
        facts.toolCalls.push(`${call.name} ${clip(shown, 160)}`);
        pending.set(call.id, { list: 'toolCalls', at: facts.toolCalls.length - 1, origin: call.name });
      }
    } else if (message.role === 'tool') {
      if (kind === 'stub') {
        const handle = message.meta?.ctxkit?.handle;
        if (handle !== undefined) facts.archived.push(`${handle}: ${clip(text, 160)}`);
      }
      const call = pending.get(message.toolCallId);
      const exit = kind === 'stub' ? undefined : exitStatus(text);
      const errors = kind === 'stub' ? [] : errorLines(text, exit);
      if (call?.list !== undefined && call.at !== undefined) {
        const list = facts[call.list];
        if (call.list === 'commands' && exit !== undefined) list[call.at] = `${list[call.at]} → exit ${exit}`;
        if (call.list === 'toolCalls' && errors.length > 0) list[call.at] = `${list[call.at]} → error`;
      }
      // SWE-agent edits change the open file, unless the result says the edit was refused.
      if (call?.sweEdit && openFile !== undefined && !/Your proposed edit has introduced new syntax error/.test(text)) pushRecent(facts.filesWritten, openFile);
      const open = text.includes('(Open file: ') ? [...text.matchAll(/\(Open file: ([^)\n]+)\)/g)].at(-1)?.[1]?.trim() : undefined;
      if (open !== undefined && open !== 'n/a') openFile = open;
      const origin = call?.origin ?? message.toolName ?? 'a tool';
      for (const line of errors) facts.errors.push(`${origin}: "${line}"`);
      if (errors.length === 0 && exit !== undefined && exit !== 0) facts.errors.push(`${origin} exited ${exit}`);
    }
  }
  facts.errors = [...new Set(facts.errors)];
  return facts;
}
