import type { Message, ToolCall } from './message.ts';
import { filesInShellCommand } from './shell-command.ts';

/**
 * The files one tool call reads and writes, as far as its name and arguments show: a shell command
 * (`kind: 'shell'`, read with {@link filesInShellCommand}), or path arguments of a file tool
 * (`kind: 'paths'`).
 */
export type ToolCallFiles =
  | {
      kind: 'shell';
      /** The command line the call runs. */
      command: string;
      /** A SWE-agent `edit 12:14` command: it writes the file open at the time, which only the results say. */
      sweEdit: boolean;
      read: string[];
      written: string[];
    }
  | {
      kind: 'paths';
      /** Every path argument, in argument order. */
      paths: string[];
      read: string[];
      written: string[];
    };

const shellTools =
  /^(?:bash|sh|zsh|shell|terminal|run|run_command|run_shell_command|run_terminal_cmd|execute|execute_command|execute_bash|exec|exec_command|cmd|powershell|local_shell|container\.exec)$/i;
const sweAgentCommands = new Set(['create', 'edit', 'open', 'goto', 'scroll_up', 'scroll_down', 'find_file', 'search_file', 'search_dir', 'submit', 'insert', 'append']);
const editorVerbs: Record<string, 'read' | 'written'> = { view: 'read', create: 'written', str_replace: 'written', insert: 'written', undo_edit: 'written', write: 'written', edit: 'written' };
const pathFields = ['path', 'file', 'filename', 'file_path', 'filepath', 'filePath', 'target_file', 'notebook_path', 'relative_path', 'absolute_path'];
const writingTool = /write|create|edit|replace|insert|patch|append|save|delete|remove|move|rename|update_file|apply/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A call's arguments parsed as JSON, or undefined when they are not JSON. */
export function parseToolArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** The shell command a call runs, if it is a shell-style call (a shell tool, or a SWE-agent command tool). */
export function shellCommandOf(call: ToolCall, args: unknown): string | undefined {
  const shellName = shellTools.test(call.name);
  if (args === undefined) return shellName ? call.arguments : undefined;
  if (!isRecord(args)) return undefined;
  const value = args.command ?? args.cmd ?? args.script;
  // Codex-style shells pass argv: ["bash", "-lc", "script"].
  const command = Array.isArray(value) ? (value.length === 3 && /sh$/.test(String(value[0])) && /^-\w*c$/.test(String(value[1])) ? String(value[2]) : value.map(String).join(' ')) : value;
  if (typeof command !== 'string') return undefined;
  if (shellName) return command;
  // SWE-agent's own commands arrive as tools named after them: { command: "create reproduce.py" }.
  const first = command.trim().split(/\s+/)[0] ?? '';
  return sweAgentCommands.has(call.name) && first === call.name ? command : undefined;
}

/** Path arguments of a file tool: the single-path fields, then `paths`/`files` arrays. */
function pathArguments(args: Record<string, unknown>): string[] {
  const paths = pathFields.flatMap((field) => (typeof args[field] === 'string' ? [args[field] as string] : []));
  for (const field of ['paths', 'files']) {
    const value = args[field];
    if (Array.isArray(value)) paths.push(...value.filter((item): item is string => typeof item === 'string'));
  }
  return paths;
}

/**
 * The files one tool call reads and writes: a shell command's (redirections, `sed -i`, `tee`, `cp`, …),
 * or a file tool's path arguments, written when an editor verb (`command: 'create'`, `'str_replace'`)
 * or the tool's name (`write_file`, `edit`, `delete_file`, …) says so and read otherwise (`view`).
 * Undefined for a call that names no file. Pass `args` when the arguments are parsed already.
 * @example toolCallFiles({ id: '1', name: 'bash', arguments: '{"command":"sed -i s/a/b/ src/app.py"}' })
 * // { kind: 'shell', command: 'sed -i s/a/b/ src/app.py', sweEdit: false, read: [], written: ['src/app.py'] }
 */
export function toolCallFiles(call: ToolCall, args: unknown = parseToolArguments(call.arguments)): ToolCallFiles | undefined {
  const command = shellCommandOf(call, args);
  if (command !== undefined) {
    // SWE-agent's `edit 12:14` text is the replacement, not a command line.
    const sweEdit = /^edit\s+\d+:\d+/.test(command.trim());
    const files = sweEdit ? { read: [], written: [] } : filesInShellCommand(command);
    return { kind: 'shell', command, sweEdit, ...files };
  }
  if (!isRecord(args)) return undefined;
  const paths = pathArguments(args);
  if (paths.length === 0) return undefined;
  const verb = typeof args.command === 'string' ? editorVerbs[args.command] : undefined;
  const writes = verb ? verb === 'written' : writingTool.test(call.name);
  return { kind: 'paths', paths, read: writes ? [] : paths, written: writes ? paths : [] };
}

/**
 * The files a run edited, most recent first, each once: what {@link toolCallFiles} finds written in
 * the assistant messages' tool calls (file tools and shell commands alike).
 * @example editedFiles(transcript) // ['src/app.ts', 'notes.md']
 */
export function editedFiles(messages: readonly Message[]): string[] {
  const found: string[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) found.push(...(toolCallFiles(call)?.written ?? []));
  }
  return [...new Set(found.reverse())];
}
