import { describe, expect, it } from 'vitest';
import type { Message } from './message.ts';
import { textOf } from './message.ts';
import { assertValidTranscript, createTranscriptValidator, messageListProblem, recentTurnsStart, safeCutIndex, segmentRounds, segmentTurns, validateTranscript } from './transcript.ts';

const call = (id: string, name = 'read_file', args = '{"path":"a.ts"}') => ({ id, name, arguments: args });

const valid: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the bug in a.ts' },
  { role: 'assistant', content: '', toolCalls: [call('c1'), call('c2', 'grep', '{"q":"x"}')] },
  { role: 'tool', toolCallId: 'c1', content: 'file text' },
  { role: 'tool', toolCallId: 'c2', content: [{ type: 'text', text: 'match' }] },
  { role: 'assistant', content: 'Done.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Now b.ts' },
      { type: 'image', mediaType: 'image/png', data: 'AAAA' },
    ],
  },
  { role: 'assistant', content: '', toolCalls: [call('c3')] },
  { role: 'tool', toolCallId: 'c3', content: 'b text' },
];

describe('validateTranscript', () => {
  it('accepts a well-formed transcript, including a final call without a result', () => {
    expect(validateTranscript(valid)).toEqual([]);
    expect(validateTranscript([...valid, { role: 'assistant', content: '', toolCalls: [call('submit', 'submit', '{}')] }])).toEqual([]);
  });

  it('reports each problem with its message index and field', () => {
    const issues = validateTranscript([
      { role: 'user', content: 'task' },
      { role: 'system', content: 'late system' },
      { role: '', content: 'x' },
      { role: 'assistant', content: '', toolCalls: [call('c1'), { id: 'c1', name: 'grep', arguments: { q: 1 } }] },
      { role: 'tool', toolCallId: 'c1', content: 'ok' },
      { role: 'tool', toolCallId: 'zz', content: 'orphan' },
      { role: 'user', content: [{ type: 'video', url: 'x' }] },
    ]);
    expect(issues).toEqual([
      { index: 1, field: 'role', problem: 'a system message must be the first message' },
      { index: 2, field: 'role', problem: 'is empty; expected system, user, assistant or tool' },
      { index: 3, field: 'toolCalls[1].arguments', problem: 'must be the JSON text as a string, got object' },
      { index: 3, field: 'toolCalls[1].id', problem: 'tool call id "c1" is used twice (first in message 3)' },
      { index: 5, field: 'toolCallId', problem: 'answers call "zz", which no earlier assistant message made' },
      { index: 6, field: 'content[0].type', problem: 'unknown part type "video"; expected text or image' },
    ]);
  });

  it('reports a tool result separated from its call, and a call answered twice', () => {
    const issues = validateTranscript([
      { role: 'user', content: 'task' },
      { role: 'assistant', content: '', toolCalls: [call('c1')] },
      { role: 'tool', toolCallId: 'c1', content: 'ok' },
      { role: 'tool', toolCallId: 'c1', content: 'again' },
      { role: 'assistant', content: '', toolCalls: [call('c2')] },
      { role: 'user', content: 'interrupting' },
      { role: 'tool', toolCallId: 'c2', content: 'late' },
    ]);
    expect(issues.map((issue) => [issue.index, issue.problem])).toEqual([
      [3, 'answers call "c1" a second time'],
      [6, 'answers call "c2" of message 4, but does not follow it (results must come right after the assistant message that called)'],
    ]);
  });

  it('reports non-objects, unknown roles and broken image parts', () => {
    const issues = validateTranscript([null, { role: 'robot', content: 'x' }, { role: 'user', content: [{ type: 'image', mediaType: '' }] }, { role: 'user', content: 42 }]);
    expect(issues.map((issue) => `${issue.index}:${issue.field}`)).toEqual(['0:', '1:role', '2:content[0].mediaType', '2:content[0]', '3:content']);
  });

  it('assertValidTranscript names no message index when the transcript is not an array', () => {
    expect(() => assertValidTranscript('hello' as never, 'engine')).toThrow('[ctxkit:engine] invalid transcript: a transcript must be an array of messages, got the string "hello"');
  });

  it('assertValidTranscript throws INVALID_TRANSCRIPT with every issue in details', () => {
    const bad = [
      { role: 'user', content: 'x' },
      { role: 'tool', toolCallId: 'nope', content: 'y' },
    ];
    expect(() => assertValidTranscript(bad, 'engine')).toThrow(
      expect.objectContaining({
        code: 'INVALID_TRANSCRIPT',
        message: expect.stringContaining('[ctxkit:engine] invalid transcript: message 1 toolCallId'),
        details: [expect.anything()],
      }),
    );
    expect(assertValidTranscript(valid)).toBe(valid);
  });
});

describe('turns and rounds', () => {
  it('starts a turn at each user message; tool rounds belong to the turn', () => {
    expect(segmentTurns(valid)).toEqual([
      { start: 1, end: 6 },
      { start: 6, end: 9 },
    ]);
  });

  it('puts messages before the first user message in a turn of their own', () => {
    const greeting: Message[] = [
      { role: 'system', content: 's' },
      { role: 'assistant', content: 'Hi' },
      { role: 'user', content: 'task' },
    ];
    expect(segmentTurns(greeting)).toEqual([
      { start: 1, end: 2 },
      { start: 2, end: 3 },
    ]);
    expect(segmentTurns([{ role: 'system', content: 's' }])).toEqual([]);
  });

  it('groups an assistant message with the tool results that answer it', () => {
    expect(segmentRounds(valid)).toEqual([
      { start: 1, end: 2 },
      { start: 2, end: 5 },
      { start: 5, end: 6 },
      { start: 6, end: 7 },
      { start: 7, end: 9 },
    ]);
  });

  it('finds where the recent turns start', () => {
    expect(recentTurnsStart(valid, 1)).toBe(6);
    expect(recentTurnsStart(valid, 2)).toBe(1);
    expect(recentTurnsStart(valid, 6)).toBe(1);
    expect(recentTurnsStart(valid, 0)).toBe(valid.length);
  });

  it('moves a cut forward past tool results so no result loses its call', () => {
    expect(safeCutIndex(valid, 3)).toBe(5);
    expect(safeCutIndex(valid, 2)).toBe(2);
    expect(safeCutIndex(valid, 8)).toBe(9);
  });

  it('textOf joins text parts and leaves images out', () => {
    expect(textOf(valid[6]!.content)).toBe('Now b.ts');
    expect(textOf('plain')).toBe('plain');
  });
});

describe('createTranscriptValidator', () => {
  it('checks only new messages while the prefix is unchanged, and starts over when it changed', () => {
    const validator = createTranscriptValidator();
    const messages: Message[] = valid.slice(0, 3);
    expect(validator.check(messages)).toEqual([]);
    // The result for c1 arrives; c2's result is still open from the same assistant message.
    messages.push(valid[3]!, valid[4]!);
    expect(validator.check(messages)).toEqual([]);
    messages.push({ role: 'tool', toolCallId: 'c1', content: 'again' });
    expect(validator.check(messages)).toEqual([{ index: 5, field: 'toolCallId', problem: 'answers call "c1" a second time' }]);
    // Already-reported messages are not reported again.
    expect(validator.check(messages)).toEqual([]);
    // A compaction replaced an earlier message: everything is checked again.
    const compacted: Message[] = [valid[0]!, { role: 'user', content: 'summary' }, { role: 'tool', toolCallId: 'c1', content: 'orphan' }];
    expect(validator.check(compacted).map((issue) => issue.index)).toEqual([2]);
  });
});

describe('messageListProblem', () => {
  it('names what is not a transcript and the first entry that is not a message', () => {
    expect(messageListProblem(null)).toBe('messages must be an array of messages, got null');
    expect(messageListProblem({ messages: [] })).toBe('messages must be an array of messages, got object');
    expect(messageListProblem([{ role: 'user', content: 'hi' }, null])).toBe('message 1: must be a message object with a string role, got null');
    expect(messageListProblem([{ role: 'user', content: 'hi' }, { content: 'no role' }])).toBe('message 1: must be a message object with a string role, got an object without one');
    expect(messageListProblem(['hi'])).toBe('message 0: must be a message object with a string role, got string');
    expect(messageListProblem([{ role: 'user', content: 'hi' }])).toBeUndefined();
  });
});
