import type { Message } from '@ctxkit/core';
import { listTrajectories, readTrajectory } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { createRetentionTracker, retentionNames, messageText } from './retention.ts';

describe('retentionNames', () => {
  it('takes paths, their file names, identifiers, dotted names and line numbers, and leaves plain words', () => {
    const names = retentionNames('Open /testbed/astroid/modutils.py at line 123 and call self._get_spec or AstroidBuilder; the value is fine');
    expect([...names]).toEqual(expect.arrayContaining(['/testbed/astroid/modutils.py'.slice(1), 'modutils.py', '123', 'self._get_spec', '_get_spec', 'AstroidBuilder']));
    for (const plain of ['Open', 'line', 'and', 'call', 'value', 'fine', 'astroid', 'testbed', 'self']) expect(names.has(plain)).toBe(false);
  });

  it('keeps camelCase and snake_case identifiers, drops single digits and numbers over 6 digits', () => {
    const names = retentionNames('getUserName user_id x 7 1234567 42');
    expect(names.has('getUserName')).toBe(true);
    expect(names.has('user_id')).toBe(true);
    expect(names.has('42')).toBe(true);
    expect(names.has('7')).toBe(false);
    expect(names.has('1234567')).toBe(false);
  });

  it('takes quoted phrases of several words as one name, marked with a leading quote', () => {
    const names = retentionNames(`grep -n "def build_namespace_package_module" builder.py; echo 'no such file'`);
    expect(names.has('"def build_namespace_package_module')).toBe(true);
    expect(names.has('"no such file')).toBe(true);
  });
});

describe('messageText', () => {
  it('reads tool-call argument values, not their keys', () => {
    const message: Message = { role: 'assistant', content: 'Looking.', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"cat setup.cfg"}' }] };
    const text = messageText(message);
    expect(text).toContain('cat setup.cfg');
    expect(text).not.toContain('"command"');
  });
});

describe('createRetentionTracker', () => {
  const system: Message = { role: 'system', content: 'You may call run_tests.' };
  const task: Message = { role: 'user', content: 'Fix parse_config in src/config.py.' };
  const call = (id: string, command: string): Message => ({ role: 'assistant', content: '', toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command }) }] });
  const result = (id: string, content: string): Message => ({ role: 'tool', toolCallId: id, content });

  it('counts a name used next as held only when the request still has it, and far when it was last seen over 4 messages back', () => {
    const tracker = createRetentionTracker();
    const history = [system, task, call('c1', 'ls'), result('c1', 'docs'), call('c2', 'ls -a'), result('c2', 'README.md'), call('c3', 'date'), result('c3', 'today')];
    for (const message of history) tracker.observe(message);
    const move = call('c4', 'sed -n 1,20p src/config.py && grep parse_config README.md');
    // The request dropped the task: src/config.py and parse_config (far: index 1) are gone; README.md (near: index 5 of 8) is held.
    tracker.score([system, ...history.slice(2)], move);
    const tally = tracker.tally();
    expect(tally.namesUsed).toBe(4); // src/config.py, config.py, parse_config, README.md
    expect(tally.namesHeld).toBe(1);
    expect(tally.farNamesUsed).toBe(3);
    expect(tally.farNamesHeld).toBe(0);
    expect(tally.retention).toBeCloseTo(0.25);
    expect(tally.farRetention).toBe(0);
  });

  it('ignores names the move did not take from earlier in the run, and names only the system message had', () => {
    const tracker = createRetentionTracker();
    for (const message of [system, task]) tracker.observe(message);
    tracker.score([system, task], call('c1', 'run_tests new_file.py'));
    expect(tracker.tally()).toMatchObject({ namesUsed: 0, retention: 1, farRetention: 1 });
  });

  it('holds a name that survives inside a stub or a summary', () => {
    const tracker = createRetentionTracker({ nearMessages: 0 });
    for (const message of [system, task]) tracker.observe(message);
    const summary: Message = { role: 'user', content: 'Earlier: edited src/config.py (parse_config).' };
    tracker.score([system, summary], call('c1', 'cat src/config.py'));
    expect(tracker.tally()).toMatchObject({ namesUsed: 2, namesHeld: 2, farNamesUsed: 2, farNamesHeld: 2 });
  });

  it.each(listTrajectories())('given the moves in advance, tallies %s exactly as without them', (file) => {
    const recorded = readTrajectory(file);
    const moves = recorded.filter((message) => message.role === 'assistant');
    const everyName = createRetentionTracker();
    const movesOnly = createRetentionTracker({ moves });
    const history: Message[] = [];
    for (const message of recorded) {
      if (message.role === 'assistant') {
        // A request that kept the first message and the last two, so some names are held and some are not.
        const request = [...history.slice(0, 1), ...history.slice(1).slice(-2)];
        everyName.score(request, message);
        movesOnly.score(request, message);
      }
      history.push(message);
      everyName.observe(message);
      movesOnly.observe(message);
    }
    expect(everyName.tally().namesUsed).toBeGreaterThan(0);
    expect(everyName.tally().namesHeld).toBeLessThan(everyName.tally().namesUsed);
    expect(movesOnly.tally()).toEqual(everyName.tally());
  });

  it('refuses to score a move whose names none of the given moves use', () => {
    const tracker = createRetentionTracker({ moves: [call('c1', 'cat src/config.py')] });
    for (const message of [system, task]) tracker.observe(message);
    expect(() => tracker.score([system, task], call('c2', 'cat src/other_file.py'))).toThrow(/score\(\) got a move that uses "src\/other_file.py"/);
  });
});
