import type { Message } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { collectFacts } from './note-facts.ts';
import { noteDetails, renderNote } from './render-note.ts';

const call = (id: string, name: string, args: unknown): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }],
});
const result = (id: string, content: string, extra: Partial<Extract<Message, { role: 'tool' }>> = {}): Message => ({ role: 'tool', toolCallId: id, content, ...extra });

describe('collectFacts', () => {
  it('reads files from path fields and from editor-style commands', () => {
    const facts = collectFacts([
      call('a', 'read_file', { path: 'src/app.ts' }),
      result('a', 'export {}'),
      call('b', 'Write', { file_path: '/repo/src/new.ts', content: 'x' }),
      result('b', 'ok'),
      call('c', 'str_replace_based_edit_tool', { command: 'view', path: 'src/util.ts' }),
      result('c', '1: x'),
      call('d', 'str_replace_editor', { command: 'str_replace', path: 'src/util.ts', old_str: 'a', new_str: 'b' }),
      result('d', 'edited'),
      call('e', 'read_many_files', { paths: ['a.md', 'b.md'] }),
      result('e', '...'),
    ]);
    expect(facts.filesRead).toEqual(['src/app.ts', 'src/util.ts', 'a.md', 'b.md']);
    expect(facts.filesWritten).toEqual(['/repo/src/new.ts', 'src/util.ts']);
    expect(facts.toolCalls).toEqual([]);
  });

  it('records shell commands with their exit status, and errors with the command they came from', () => {
    const facts = collectFacts([
      call('a', 'bash', { command: 'cd /testbed && python reproduce.py' }),
      result('a', '<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File "reproduce.py", line 1\nImportError: cannot import name \'x\'\n</output>'),
      call('b', 'shell', { command: ['bash', '-lc', 'grep -n foo src/a.py'] }),
      result('b', 'Exit code: 1'),
      call('c', 'run_terminal_cmd', '{"command": "ls" BROKEN'),
      result('c', 'a b c'),
    ]);
    expect(facts.commands).toEqual(['`cd /testbed && python reproduce.py` → exit 1', '`grep -n foo src/a.py` → exit 1', '`{"command": "ls" BROKEN`']);
    expect(facts.filesRead).toEqual(['reproduce.py', 'src/a.py']);
    expect(facts.errors).toEqual(['`cd /testbed && python reproduce.py`: "ImportError: cannot import name \'x\'"', '`grep -n foo src/a.py` exited 1']);
  });

  it('lists other tool calls compactly, marks the failed ones, and takes a think thought as the plan', () => {
    const facts = collectFacts([
      { role: 'user', content: 'Cancel   my reservation\nS61CZX please.' },
      call('a', 'cancel_reservation', { reservation_id: 'S61CZX' }),
      result('a', 'Error: reservation S61CZX is not refundable'),
      { role: 'assistant', content: 'I will look for alternatives.' },
      call('b', 'think', { thought: 'Check the flights over 3 hours next.' }),
      result('b', ''),
    ]);
    expect(facts.toolCalls).toEqual(['cancel_reservation {"reservation_id":"S61CZX"} → error']);
    expect(facts.errors).toEqual(['cancel_reservation: "Error: reservation S61CZX is not refundable"']);
    expect(facts.userMessages).toEqual(['Cancel my reservation S61CZX please.']);
    expect(facts.lastPlan).toBe('Check the flights over 3 hours next.');
  });

  it('follows the SWE-agent open file: a refused edit writes nothing, an applied one writes the open file', () => {
    const facts = collectFacts([
      call('a', 'open', { command: 'open src/handler.py 290' }),
      result('a', '[File: /repo/src/handler.py (372 lines total)]\n(Open file: /repo/src/handler.py)\n(Current directory: /repo)'),
      call('b', 'edit', { command: 'edit 287:295\n    x = [\nend_of_edit' }),
      result('b', "Your proposed edit has introduced new syntax error(s).\nERRORS:\n- E999 SyntaxError: unmatched ']'\n(Open file: /repo/src/handler.py)"),
      call('c', 'edit', { command: 'edit 287:295\n    x = []\nend_of_edit' }),
      result('c', '[File: /repo/src/handler.py (373 lines total)]\nFile updated.\n(Open file: /repo/src/handler.py)'),
    ]);
    expect(facts.filesRead).toEqual(['src/handler.py']);
    expect(facts.filesWritten).toEqual(['/repo/src/handler.py']);
    expect(facts.commands).toEqual(['`open src/handler.py 290`', '`edit 287:295 …`', '`edit 287:295 …`']);
    expect(facts.errors).toEqual(['`edit 287:295 …`: "- E999 SyntaxError: unmatched \']\'"']);
  });

  it('lists archived results and counts what earlier summaries covered', () => {
    const facts = collectFacts([
      { role: 'user', content: '[ctxkit summary of 40 earlier messages. …]\n## Task\nFix it\n## Done\nRan tests.', meta: { ctxkit: { kind: 'summary', by: 'summary' } } },
      call('a', 'read_file', { path: 'big.log' }),
      result('a', '[tool result archived: read_file big.log, 12,480 tokens; restore with restore_tool_result("r7")]', { meta: { ctxkit: { kind: 'stub', by: 'microcompact', handle: 'r7' } } }),
      { role: 'user', content: '[ctxkit: restored after a compaction]', meta: { ctxkit: { kind: 'reinjected', by: 'task' } } },
    ]);
    expect(facts.messages).toBe(42);
    expect(facts.earlierSummaries).toEqual(['## Task\nFix it\n## Done\nRan tests.']);
    expect(facts.archived).toEqual(['r7: [tool result archived: read_file big.log, 12,480 tokens; restore with restore_tool_result("r7")]']);
    expect(facts.userMessages).toEqual([]);
  });

  it('reads an earlier note back, so a second trim keeps the first one’s facts', () => {
    const first = collectFacts([
      { role: 'user', content: 'Keep the API "stable".' },
      call('a', 'bash', { command: 'cat src/old.ts' }),
      result('a', '<returncode>0</returncode>'),
      { role: 'assistant', content: 'Old plan.' },
    ]);
    const note: Message = {
      role: 'user',
      content: `[ctxkit note on 4 earlier messages, built without a model …]\n${renderNote(first, noteDetails[0]!)}`,
      meta: { ctxkit: { kind: 'note', by: 'trim' } },
    };
    const second = collectFacts([note, call('b', 'bash', { command: 'sed -i s/a/b/ src/new.ts' }), result('b', '<returncode>0</returncode>')]);
    expect(second.messages).toBe(6);
    expect(second.userMessages).toEqual(['Keep the API "stable".']);
    expect(second.filesRead).toEqual(['src/old.ts']);
    expect(second.filesWritten).toEqual(['src/new.ts']);
    expect(second.commands).toEqual(['`cat src/old.ts` → exit 0', '`sed -i s/a/b/ src/new.ts` → exit 0']);
    expect(second.lastPlan).toBe('Old plan.');
  });
});

describe('renderNote', () => {
  it('keeps the most recent items at lower detail and says how many it left out', () => {
    const facts = collectFacts(Array.from({ length: 40 }, (_, index) => [call(`c${index}`, 'bash', { command: `cat f${index}.txt` }), result(`c${index}`, '<returncode>0</returncode>')]).flat());
    const full = renderNote(facts, noteDetails[0]!);
    const bare = renderNote(facts, noteDetails.at(-1)!);
    expect(full).toContain('## Commands run\n- … 15 earlier commands not listed\n- `cat f15.txt` → exit 0');
    // The names the span mentioned come last, the most recently seen first.
    expect(full).toContain('- `cat f39.txt` → exit 0\n## Names seen\nf39.txt, f39, f38.txt, f38,');
    expect(bare).toBe('## Files read\n- (40 files, not listed)\n## Commands run\n- (40 commands, not listed)');
  });
});
