import { describe, expect, it } from 'vitest';
import { parseJsonlTranscript } from './jsonl-transcript.ts';

describe('parseJsonlTranscript', () => {
  it('converts the corpus format to ctxkit messages', () => {
    const text = [
      '{"role":"system","content":"s"}',
      '{"role":"user","content":"task"}',
      '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"ls"}}]}',
      '{"role":"tool","tool_call_id":"c1","content":"a.txt"}',
      '',
    ].join('\n');
    expect(parseJsonlTranscript(text)).toEqual([
      { role: 'system', content: 's' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'bash', content: 'a.txt' },
    ]);
  });

  it('names the file and line of a bad line', () => {
    const text = '{"role":"user","content":"x"}\n{"role":"user",\n';
    expect(() => parseJsonlTranscript(text, 'run.jsonl')).toThrow(/\[ctxkit:core\] run\.jsonl:2: not valid JSON/);
    expect(() => parseJsonlTranscript('{"role":"robot"}', 'run.jsonl')).toThrow(/run\.jsonl:1: unknown role "robot"/);
    expect(() => parseJsonlTranscript('{"role":"tool","content":"x"}', 'r')).toThrow(
      expect.objectContaining({ name: 'CtxkitError', code: 'INVALID_TRANSCRIPT', message: expect.stringMatching(/^\[ctxkit:core\] r:1: /) }),
    );
  });
});
