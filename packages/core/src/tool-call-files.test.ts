import { describe, expect, it } from 'vitest';
import type { Message, ToolCall } from './message.ts';
import { editedFiles, toolCallFiles } from './tool-call-files.ts';

const call = (name: string, args: unknown, id = name): ToolCall => ({ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
const assistant = (...calls: ToolCall[]): Message => ({ role: 'assistant', content: '', toolCalls: calls });

describe('toolCallFiles', () => {
  it.each([
    // From the engine's edited-files detection.
    ['write_file with a path', call('write_file', { path: 'a.ts', content: 'x' }), [], ['a.ts']],
    ['an editor view', call('str_replace_editor', { command: 'view', path: 'read-only.ts' }), ['read-only.ts'], []],
    ['an editor str_replace', call('str_replace_editor', { command: 'str_replace', path: 'b.py', old_str: 'x', new_str: 'y' }), [], ['b.py']],
    ['edit with file_path', call('edit', { file_path: 'a.ts' }), [], ['a.ts']],
    ['a camelCase filePath', call('Write', { filePath: 'src/x.ts', content: '' }), [], ['src/x.ts']],
    ['sed -i in a bash call', call('bash', { command: "sed -i 's/a/b/' src/c.py && cat src/d.py" }), ['src/d.py'], ['src/c.py']],
    ['a redirection and grep', call('bash', { command: 'echo hi > notes.md; grep x e.txt' }), ['e.txt'], ['notes.md']],
    ['tee to /dev/null', call('bash', { command: 'echo x | tee /dev/null' }), [], []],
    // From tier-trim's factual note.
    ['a read_file path', call('read_file', { path: 'src/app.ts' }), ['src/app.ts'], []],
    ['paths arrays', call('delete_files', { paths: ['a.txt', 'b.txt'] }), [], ['a.txt', 'b.txt']],
    ['an editor create verb on any tool', call('files', { command: 'create', path: 'new.py' }), [], ['new.py']],
    ['Codex argv', call('shell', { command: ['bash', '-lc', 'cat src/a.rs > out.txt'] }), ['src/a.rs'], ['out.txt']],
    ['a shell call whose arguments are not JSON', call('bash', 'cp a.py b.py'), ['a.py'], ['b.py']],
    ['a SWE-agent create tool', call('create', { command: 'create reproduce.py' }), [], ['reproduce.py']],
    ['a SWE-agent edit (its file is the open one)', call('edit', { command: 'edit 12:14\nfoo\nend_of_edit' }), [], []],
  ])('%s', (_name, toolCall, read, written) => {
    const files = toolCallFiles(toolCall);
    expect(files?.read).toEqual(read);
    expect(files?.written).toEqual(written);
  });

  it('names no files for a call without paths or a shell command, or a run-like tool that is not a shell', () => {
    expect(toolCallFiles(call('search', { query: 'x' }))).toBeUndefined();
    expect(toolCallFiles(call('run_tests', { command: 'pytest tests/test_a.py' }))).toBeUndefined();
    expect(toolCallFiles(call('think', 'not json'))).toBeUndefined();
  });

  it('says which shell command it read, and marks SWE-agent edits', () => {
    expect(toolCallFiles(call('bash', { cmd: 'touch x.md' }))).toEqual({ kind: 'shell', command: 'touch x.md', sweEdit: false, read: [], written: ['x.md'] });
    expect(toolCallFiles(call('edit', { command: 'edit 1:2\nx\nend_of_edit' }))).toMatchObject({ kind: 'shell', sweEdit: true });
  });
});

describe('editedFiles', () => {
  it('finds files from write-like tools and shell commands, most recent first, without reads', () => {
    const messages: Message[] = [
      { role: 'user', content: 'task' },
      assistant(call('write_file', { path: 'a.ts', content: 'x' }, '1')),
      assistant(call('str_replace_editor', { command: 'view', path: 'read-only.ts' }, '2')),
      assistant(call('str_replace_editor', { command: 'str_replace', path: 'b.py', old_str: 'x', new_str: 'y' }, '3')),
      assistant(call('bash', { command: "sed -i 's/a/b/' src/c.py && cat src/d.py" }, '4')),
      assistant(call('bash', { command: 'echo hi > notes.md; grep x e.txt' }, '5')),
      assistant(call('edit', { file_path: 'a.ts' }, '6')),
    ];
    expect(editedFiles(messages)).toEqual(['a.ts', 'notes.md', 'src/c.py', 'b.py']);
  });

  it('reads tool calls only, not what a user or a tool result says', () => {
    const messages: Message[] = [
      { role: 'user', content: 'please edit src/app.ts' },
      { role: 'tool', toolCallId: 'x', content: 'wrote out.md' },
    ];
    expect(editedFiles(messages)).toEqual([]);
  });
});
