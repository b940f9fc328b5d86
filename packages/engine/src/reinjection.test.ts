import type { Message, ReinjectionSourcePlugin } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { collectReinjection, fairCap, reinjectionHeader } from './reinjection.ts';
import { editedFiles, goalCriteriaSource, planSource, taskSource, todosSource } from './reinjection-sources.ts';

const context = (original: Message[], compacted: Message[] = []) => ({
  original,
  compacted,
  budgetTokens: 10_000,
  countText: (text: string) => Math.ceil(text.length / 4),
  signal: new AbortController().signal,
});

const call = (name: string, args: unknown, id = name) => ({ role: 'assistant' as const, content: '', toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

describe('fairCap', () => {
  it('cuts the largest first and leaves small blocks whole', () => {
    expect(fairCap([100, 200, 5_000], 1_000)).toBe(700);
    expect(fairCap([100, 200], 1_000)).toBe(Number.POSITIVE_INFINITY);
    expect(fairCap([600, 600], 1_000)).toBe(500);
  });
});

describe('editedFiles', () => {
  it('finds files from write-like tools and shell commands, most recent first, without reads', () => {
    const messages: Message[] = [
      { role: 'user', content: 'task' },
      call('write_file', { path: 'a.ts', content: 'x' }, '1'),
      call('str_replace_editor', { command: 'view', path: 'read-only.ts' }, '2'),
      call('str_replace_editor', { command: 'str_replace', path: 'b.py', old_str: 'x', new_str: 'y' }, '3'),
      call('bash', { command: "sed -i 's/a/b/' src/c.py && cat src/d.py" }, '4'),
      call('bash', { command: 'echo hi > notes.md; grep x e.txt' }, '5'),
      call('edit', { file_path: 'a.ts' }, '6'),
    ];
    expect(editedFiles(messages)).toEqual(['a.ts', 'notes.md', 'src/c.py', 'b.py']);
  });
});

describe('reinjection sources', () => {
  it('task: only when the compacted transcript lost it', async () => {
    const task: Message = { role: 'user', content: 'Fix the bug' };
    expect(await taskSource().collect(context([task], [task]))).toBeUndefined();
    expect(await taskSource().collect(context([task], [{ role: 'user', content: 'summary' }]))).toEqual({ title: 'Task (verbatim)', text: 'Fix the bug' });
  });

  it('plan: the latest checklist an assistant wrote, or the host plan', async () => {
    const original: Message[] = [
      { role: 'assistant', content: 'Plan:\n- [x] read the code\n- [ ] fix range()\n- [ ] run tests' },
      { role: 'assistant', content: 'Now running the tests.' },
    ];
    expect(await planSource().collect(context(original))).toEqual({ title: 'Active plan', text: '- [x] read the code\n- [ ] fix range()\n- [ ] run tests' });
    expect(await planSource(() => 'host plan').collect(context(original))).toEqual({ title: 'Active plan', text: 'host plan' });
    expect(await planSource().collect(context([{ role: 'assistant', content: 'no list here' }]))).toBeUndefined();
  });

  it('todos: the latest todo tool call with statuses', async () => {
    const original: Message[] = [
      call('TodoWrite', { todos: [{ content: 'old', status: 'pending' }] }, '1'),
      call(
        'TodoWrite',
        {
          todos: [
            { content: 'write test', status: 'completed' },
            { content: 'fix bug', status: 'in_progress' },
          ],
        },
        '2',
      ),
    ];
    expect(await todosSource().collect(context(original))).toEqual({ title: 'Todos', text: '- [x] write test (completed)\n- [ ] fix bug (in_progress)' });
  });

  it('goal criteria: only the open ones', async () => {
    const source = goalCriteriaSource([{ text: 'tests pass' }, { text: 'lint clean', done: true }, 'docs updated']);
    expect(await source.collect(context([]))).toEqual({ title: 'Open goal criteria', text: '- [ ] tests pass\n- [ ] docs updated' });
  });
});

describe('collectReinjection', () => {
  it('builds one marked message, reports failing sources, and keeps within the budget', async () => {
    const failing: ReinjectionSourcePlugin<'broken'> = {
      specificationVersion: 'v1',
      kind: 'reinjection-source',
      id: 'broken',
      collect: async () => {
        throw new Error('disk gone');
      },
    };
    const big: ReinjectionSourcePlugin<'big'> = { specificationVersion: 'v1', kind: 'reinjection-source', id: 'big', collect: async () => ({ title: 'Big', text: 'x'.repeat(8_000) }) };
    const result = await collectReinjection([taskSource(), failing, big], { ...context([{ role: 'user', content: 'Fix it' }]), budgetTokens: 500 });
    expect(result.failures).toEqual([{ source: 'broken', reason: 'disk gone' }]);
    expect(result.blocks.map((block) => [block.source, block.cut])).toEqual([
      ['task', false],
      ['big', true],
    ]);
    const text = result.message!.content as string;
    expect(text.startsWith(reinjectionHeader)).toBe(true);
    expect(text).toContain('## Task (verbatim)\nFix it');
    expect(text).toContain('[... cut to fit the reinjection budget]');
    expect(Math.ceil(text.length / 4)).toBeLessThan(600);
    expect(result.message!.meta?.ctxkit?.kind).toBe('reinjected');
  });
});
