import { type Message, type TierPlugin, validateTranscript } from '@ctxkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approximateCount } from './approximate-count.ts';
import { checkTierConformance, checkTierOutput, runTierConformance } from './conformance.ts';
import { transcriptArbitrary } from './transcript-arbitrary.ts';

type Apply = TierPlugin['apply'];
const tier = (id: string, apply: Apply): TierPlugin => ({ specificationVersion: 'v1', kind: 'tier', id, category: 'structural', apply });

/** A correct tier: tool results before the protected region become short notes that name what they replace. */
const noteTier = () =>
  tier('note', async (messages, { protectedStart }) => {
    let changed = false;
    const out = messages.map((message, index): Message => {
      if (index >= protectedStart || message.role !== 'tool' || JSON.stringify(message.content).length < 40) return message;
      changed = true;
      return { role: 'tool', toolCallId: message.toolCallId, content: '[removed]', meta: { ctxkit: { kind: 'note', by: 'note', replaces: [message.id ?? `#${index}`] } } };
    });
    return changed ? { status: 'applied', messages: out } : { status: 'skipped', reason: 'no old tool results' };
  });

const broken: Record<string, () => TierPlugin> = {
  'rewrites the system message': () =>
    tier('system', async (messages) =>
      messages[0]?.role === 'system' ? { status: 'applied', messages: [{ role: 'system', content: `${messages[0].content} ` }, ...messages.slice(1)] } : { status: 'skipped', reason: '' },
    ),
  'drops a tool result and orphans its call': () =>
    tier('orphan', async (messages) => {
      const index = messages.findIndex((message) => message.role === 'tool');
      return index < 0 ? { status: 'skipped', reason: '' } : { status: 'applied', messages: messages.filter((_, at) => at !== index) };
    }),
  'drops old messages without a trace': () =>
    tier('drop', async (messages, { protectedStart }) => {
      const first = messages[0]?.role === 'system' ? 1 : 0;
      return protectedStart - first < 1 ? { status: 'skipped', reason: '' } : { status: 'applied', messages: [...messages.slice(0, first), ...messages.slice(protectedStart)] };
    }),
  'edits the recent turns': () =>
    tier('recent', async (messages, { protectedStart }) => {
      const last = messages.at(-1);
      if (!last || protectedStart >= messages.length || last.role === 'system' || typeof last.content !== 'string' || last.content.length < 2) return { status: 'skipped', reason: '' };
      return { status: 'applied', messages: [...messages.slice(0, -1), { ...last, content: last.content.slice(1) } as Message] };
    }),
  'makes the transcript larger': () =>
    tier('larger', async (messages) => ({
      status: 'applied',
      messages: messages.map((message) => (message.role === 'user' ? { ...message, content: `${typeof message.content === 'string' ? message.content : ''} and more words` } : message)),
    })),
  'mutates its input': () =>
    tier('mutate', async (messages) => {
      const tool = messages.find((message) => message.role === 'tool');
      if (tool) tool.content = 'x';
      return { status: 'skipped', reason: 'pretends it did nothing' };
    }),
  'leaves a stub whose original was never archived': () =>
    tier('stub', async (messages, { protectedStart }) => {
      const index = messages.findIndex((message, at) => at < protectedStart && message.role === 'tool');
      if (index < 0) return { status: 'skipped', reason: '' };
      const target = messages[index] as Extract<Message, { role: 'tool' }>;
      const out = [...messages];
      out[index] = { role: 'tool', toolCallId: target.toolCallId, content: '[archived]', meta: { ctxkit: { kind: 'stub', by: 'stub', replaces: [target.id ?? `#${index}`], handle: 'r1' } } };
      return { status: 'applied', messages: out };
    }),
};

describe('transcriptArbitrary', () => {
  it('generates valid transcripts with tool calls, images and long outputs', () => {
    let sawImage = false;
    let sawLong = false;
    let sawCalls = false;
    fc.assert(
      fc.property(transcriptArbitrary(), (messages) => {
        expect(validateTranscript(messages)).toEqual([]);
        sawImage ||= messages.some((message) => typeof message.content !== 'string' && message.content.some((part) => part.type === 'image'));
        sawLong ||= messages.some((message) => typeof message.content === 'string' && message.content.length > 2_000);
        sawCalls ||= messages.some((message) => message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0);
      }),
      { numRuns: 300 },
    );
    expect([sawImage, sawLong, sawCalls]).toEqual([true, true, true]);
  });
});

describe('checkTierConformance', () => {
  it('passes a tier that keeps the invariants', async () => {
    const report = await checkTierConformance(noteTier, { runs: 300 });
    expect(report.runs).toBe(300);
    expect(report.applied).toBeGreaterThan(30);
  });

  const expected: Record<string, RegExp> = {
    'rewrites the system message': /the system message is not byte-identical/,
    'drops a tool result and orphans its call': /tool call call_\d+ had a result and lost it/,
    'drops old messages without a trace': /disappeared without a trace/,
    'edits the recent turns': /protected recent messages .* are not verbatim/,
    'makes the transcript larger': /output is larger than input/,
    'mutates its input': /the tier mutated its input/,
    'leaves a stub whose original was never archived': /stub handle r1 cannot be restored/,
  };
  it.each(Object.keys(broken))('fails a tier that %s', async (name) => {
    await expect(checkTierConformance(broken[name]!, { runs: 300, seed: 7 })).rejects.toThrow(expected[name]!);
  });
});

describe('checkTierOutput', () => {
  const input: Message[] = [
    { role: 'system', content: 's' },
    { role: 'user', content: 'task' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'bash', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'a', content: 'long output '.repeat(50) },
    { role: 'user', content: 'next' },
  ];

  it('names the message that disappeared and the broken recent region', async () => {
    const output: Message[] = [input[0]!, input[1]!, input[2]!, { role: 'tool', toolCallId: 'a', content: 'x' }, { role: 'user', content: 'next!' }];
    expect(await checkTierOutput(input, output, { protectedStart: 4, count: approximateCount })).toEqual([
      'the 1 protected recent messages (from index 4) are not verbatim at the end',
      'message 3 (tool) disappeared without a trace',
    ]);
  });
});

runTierConformance(noteTier, { runs: 200 });
