import { CtxkitError, validateTranscript } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { corpusDir, corpusMissingMessage, listTrajectories, parseTrajectory, readTrajectory } from './corpus.ts';

describe('parseTrajectory', () => {
  it('converts the corpus format to ctxkit messages', () => {
    const text = [
      '{"role":"system","content":"s"}',
      '{"role":"user","content":"task"}',
      '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"ls"}}]}',
      '{"role":"tool","tool_call_id":"c1","content":"a.txt"}',
      '',
    ].join('\n');
    expect(parseTrajectory(text)).toEqual([
      { role: 'system', content: 's' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'bash', content: 'a.txt' },
    ]);
  });

  it('names the file and line of a bad line', () => {
    const text = '{"role":"user","content":"x"}\n{"role":"user",\n';
    expect(() => parseTrajectory(text, 'run.jsonl')).toThrow(/\[ctxkit:testkit\] run\.jsonl:2: not valid JSON/);
    expect(() => parseTrajectory('{"role":"robot"}', 'run.jsonl')).toThrow(/run\.jsonl:1: unknown role "robot"/);
    try {
      parseTrajectory('{"role":"tool","content":"x"}', 'r');
    } catch (error) {
      expect(CtxkitError.isInstance(error, 'INVALID_TRANSCRIPT')).toBe(true);
    }
  });
});

const corpus = corpusDir();
if (!corpus) console.warn(`[testkit] ${corpusMissingMessage}`);

describe.skipIf(!corpus)('the recorded runs of the shared corpus', () => {
  it.each(listTrajectories())('%s parses into a valid transcript', (file) => {
    const messages = readTrajectory(file);
    expect(messages.length).toBeGreaterThan(20);
    expect(messages[0]!.role).toBe('system');
    expect(validateTranscript(messages)).toEqual([]);
  });
});
