import { CtxkitError, type Message, validateTranscript } from '@ctxkit/core';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createConversionCache, fromBaseMessages, toBaseMessages } from './convert.ts';

const seed = Number(process.env.FC_SEED ?? 20_261_201);
const runs = { seed, numRuns: 150 };

const block = fc.oneof(
  fc.string({ maxLength: 30 }).map((text) => ({ type: 'text', text })),
  fc.constant({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }),
  fc.constant({ type: 'image', url: 'https://example.com/a.png', mimeType: 'image/png' }),
  fc.string({ maxLength: 20 }).map((reasoning) => ({ type: 'reasoning', reasoning })),
);
const content = fc.oneof(fc.string({ maxLength: 40 }), fc.array(block, { minLength: 1, maxLength: 3 }));

// A LangChain history: a system prompt, then turns of a human message and rounds of an AIMessage with
// tool_calls and the ToolMessages answering them.
const history: fc.Arbitrary<BaseMessage[]> = fc
  .tuple(
    fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
    fc.array(fc.tuple(content, fc.array(fc.tuple(content, fc.array(fc.tuple(fc.jsonValue({ maxDepth: 1 }), content), { maxLength: 3 })), { maxLength: 3 })), { minLength: 1, maxLength: 3 }),
  )
  .map(([system, turns]) => {
    const messages: BaseMessage[] = system === undefined ? [] : [new SystemMessage(system)];
    let round = 0;
    for (const [human, rounds] of turns) {
      messages.push(new HumanMessage({ content: human as never }));
      for (const [reply, calls] of rounds) {
        round += 1;
        const toolCalls = calls.map(([args], index) => ({ id: `c${round}_${index}`, name: `tool${index}`, args: { value: args }, type: 'tool_call' as const }));
        messages.push(new AIMessage({ content: reply as never, tool_calls: toolCalls }));
        for (const [index, [, result]] of calls.entries()) messages.push(new ToolMessage({ content: result as never, tool_call_id: `c${round}_${index}`, name: `tool${index}` }));
      }
    }
    return messages;
  });

describe('BaseMessage ⇄ ctxkit messages', () => {
  it('gives back the same message objects for everything ctxkit did not rewrite (property)', () => {
    fc.assert(
      fc.property(history, (messages) => {
        const back = toBaseMessages(fromBaseMessages(messages));
        expect(back).toHaveLength(messages.length);
        for (const [index, message] of back.entries()) expect(message).toBe(messages[index]);
      }),
      runs,
    );
  });

  it('gives ctxkit a valid transcript with tool calls paired (property)', () => {
    fc.assert(
      fc.property(history, (messages) => {
        expect(validateTranscript(fromBaseMessages(messages))).toEqual([]);
      }),
      runs,
    );
  });

  it('a stubbed tool result becomes a new ToolMessage answering the same call; the rest are the same objects (property)', () => {
    fc.assert(
      fc.property(history, fc.nat(), (messages, pick) => {
        const converted = fromBaseMessages(messages);
        const tools = converted.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
        fc.pre(tools.length > 0);
        const target = tools[pick % tools.length]!;
        const original = converted[target] as Extract<Message, { role: 'tool' }>;
        converted[target] = { ...original, content: '[tool result 1 archived; restore with restore_tool_result("r1")]' };
        const back = toBaseMessages(converted);
        back.forEach((message, index) => {
          if (index !== target) expect(message).toBe(messages[index]);
        });
        const stub = back[target] as ToolMessage;
        expect(stub).toBeInstanceOf(ToolMessage);
        expect(stub.tool_call_id).toBe(original.toolCallId);
        expect(stub.name).toBe(original.toolName);
        expect(stub.content).toBe('[tool result 1 archived; restore with restore_tool_result("r1")]');
      }),
      runs,
    );
  });

  it('converts a message the agent keeps in state to the same ctxkit object, with a cache', () => {
    const messages = [new HumanMessage('hi'), new AIMessage('hello')];
    const cache = createConversionCache();
    const first = fromBaseMessages(messages, cache);
    const again = fromBaseMessages([...messages, new HumanMessage('more')], cache);
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
  });

  it('reads tool_calls, ToolMessages and content blocks into what ctxkit measures', () => {
    const messages = fromBaseMessages([
      new SystemMessage('Be brief.'),
      new HumanMessage({
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } },
        ],
      }),
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'look', args: { at: 'top' }, type: 'tool_call' }] }),
      new ToolMessage({ content: 'a cat', tool_call_id: 'c1', name: 'look' }),
    ]);
    expect(messages.map(({ meta: _meta, ...rest }) => rest)).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', mediaType: 'image/jpeg', url: 'data:image/jpeg;base64,/9j/' },
        ],
      },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'look', arguments: '{"at":"top"}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'look', content: 'a cat' },
    ]);
  });

  it('builds what ctxkit wrote as LangChain messages', () => {
    const [summary, reply] = toBaseMessages([
      { role: 'user', content: 'Summary so far', meta: { ctxkit: { kind: 'summary', by: 'summary' } } },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c9', name: 'read', arguments: '{"path":"a"}' }] },
    ]);
    expect(summary).toBeInstanceOf(HumanMessage);
    expect(summary!.content).toBe('Summary so far');
    expect((reply as AIMessage).tool_calls).toEqual([{ id: 'c9', name: 'read', args: { path: 'a' }, type: 'tool_call' }]);
  });

  it('rejects what is not a BaseMessage with a typed error naming its index', () => {
    expect(() => fromBaseMessages([new HumanMessage('hi'), null as never])).toThrow(CtxkitError);
    expect(() => fromBaseMessages([new HumanMessage('hi'), null as never])).toThrow('[ctxkit:langchain] message 1: expected a BaseMessage, got null');
    expect(() => fromBaseMessages([{ getType: () => 'remove', content: '' } as never])).toThrow('message 0 type: expected system, human, ai or tool, got "remove"');
  });
});
