import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { CtxkitError, type Message, validateTranscript } from '@ctxkit/core';
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createConversionCache, fromLanguageModelPrompt, fromModelMessages, toLanguageModelPrompt, toModelMessages } from './convert.ts';

// A deep copy that keeps URLs and bytes (structuredClone turns a URL into an error in some runtimes).
function deepCopy<T>(value: T): T {
  if (value instanceof URL) return new URL(value.href) as T;
  if (value instanceof Uint8Array) return value.slice() as T;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, deepCopy(entry)])) as T;
  return value;
}

const seed = Number(process.env.FC_SEED ?? 20_261_201);
const runs = { seed, numRuns: 150 };

const providerOptions = fc.option(fc.record({ test: fc.record({ cache: fc.boolean(), note: fc.string({ maxLength: 8 }) }) }), { nil: undefined });
const withOptions = <T extends object>(value: T, options: unknown): T => (options === undefined ? value : { ...value, providerOptions: options });
const text = fc.tuple(fc.string({ maxLength: 40 }), providerOptions).map(([value, options]) => withOptions({ type: 'text' as const, text: value }, options));
const fileData = fc.oneof(
  fc.base64String({ minLength: 4, maxLength: 24 }).map((data) => ({ type: 'data' as const, data })),
  fc.uint8Array({ minLength: 1, maxLength: 16 }).map((data) => ({ type: 'data' as const, data })),
  fc.constant({ type: 'url' as const, url: new URL('https://example.com/shot.png') }),
  fc.string({ maxLength: 20 }).map((value) => ({ type: 'text' as const, text: value })),
);
const file = fc
  .tuple(fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'text/plain'), fileData, fc.option(fc.constantFrom('a.pdf', 'shot.png'), { nil: undefined }), providerOptions)
  .map(([mediaType, data, filename, options]) => withOptions({ type: 'file' as const, mediaType, data, ...(filename ? { filename } : {}) }, options));
const reasoning = fc.tuple(fc.string({ maxLength: 40 }), providerOptions).map(([value, options]) => withOptions({ type: 'reasoning' as const, text: value }, options));
const custom = fc.constant({ type: 'custom' as const, kind: 'test.marker' as const });
const output = fc.oneof(
  fc.string({ maxLength: 60 }).map((value) => ({ type: 'text' as const, value })),
  fc.jsonValue({ maxDepth: 2 }).map((value) => ({ type: 'json' as const, value: value as never })),
  fc.string({ maxLength: 20 }).map((value) => ({ type: 'error-text' as const, value })),
  fc.option(fc.string({ maxLength: 20 }), { nil: undefined }).map((reason) => ({ type: 'execution-denied' as const, ...(reason ? { reason } : {}) })),
  fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 20 }).map((value) => ({ type: 'text' as const, text: value })),
        fileData.map((data) => ({ type: 'file' as const, mediaType: 'image/png', data })),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((value) => ({ type: 'content' as const, value })),
);
const approval = fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), fc.boolean()).map(([approvalId, approved]) => ({ type: 'tool-approval-response' as const, approvalId, approved }));

// A round: an assistant reply with calls, the tool message answering them (approvals mixed in), sometimes an
// approval-only tool message after it. Ids are numbered by round so they are unique.
const round = fc
  .tuple(
    fc.array(fc.oneof(text, reasoning, file, custom), { maxLength: 3 }),
    fc.array(fc.tuple(fc.jsonValue({ maxDepth: 1 }), output, providerOptions), { maxLength: 3 }),
    fc.array(approval, { maxLength: 1 }),
    fc.boolean(),
    providerOptions,
  )
  .map(([parts, calls, approvals, approvalOnly, options]) => (roundIndex: number): LanguageModelV4Message[] => {
    const callParts = calls.map(([input], index) => ({ type: 'tool-call' as const, toolCallId: `c${roundIndex}_${index}`, toolName: `tool${index}`, input }));
    const messages: LanguageModelV4Message[] = [withOptions({ role: 'assistant' as const, content: [...parts, ...callParts] }, options)];
    if (calls.length > 0) {
      const results = calls.map(([, result, resultOptions], index) =>
        withOptions({ type: 'tool-result' as const, toolCallId: `c${roundIndex}_${index}`, toolName: `tool${index}`, output: result }, resultOptions),
      );
      messages.push({ role: 'tool', content: [...approvals, ...results] });
    }
    if (approvalOnly) messages.push({ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: `a${roundIndex}`, approved: true }] });
    return messages;
  });
const user = fc.tuple(fc.array(fc.oneof(text, file), { minLength: 1, maxLength: 3 }), providerOptions).map(([content, options]) => withOptions({ role: 'user' as const, content }, options));
const system = fc.tuple(fc.string({ maxLength: 40 }), providerOptions).map(([content, options]) => withOptions({ role: 'system' as const, content }, options));

const prompt: fc.Arbitrary<LanguageModelV4Prompt> = fc
  .tuple(fc.option(system, { nil: undefined }), fc.array(fc.tuple(user, fc.array(round, { maxLength: 3 }), fc.option(system, { nil: undefined })), { minLength: 1, maxLength: 4 }))
  .map(([first, turns]) => {
    const messages: LanguageModelV4Message[] = first ? [first] : [];
    let roundIndex = 0;
    for (const [userMessage, rounds, later] of turns) {
      messages.push(userMessage);
      for (const make of rounds) messages.push(...make(roundIndex++));
      if (later) messages.push(later);
    }
    return messages;
  });

describe('LanguageModelV4 prompt ⇄ ctxkit messages', () => {
  it('is lossless for everything ctxkit did not rewrite (property)', () => {
    fc.assert(
      fc.property(prompt, (input) => {
        const back = toLanguageModelPrompt(fromLanguageModelPrompt(input));
        expect(back).toEqual(input);
      }),
      runs,
    );
  });

  it('is lossless through a deep copy of the ctxkit messages (a host that copies them)', () => {
    fc.assert(
      fc.property(prompt, (input) => {
        expect(toLanguageModelPrompt(deepCopy(fromLanguageModelPrompt(input)))).toEqual(input);
      }),
      runs,
    );
  });

  it('gives ctxkit a valid transcript: system first, every result right after its call (property)', () => {
    fc.assert(
      fc.property(prompt, (input) => {
        expect(validateTranscript(fromLanguageModelPrompt(input))).toEqual([]);
      }),
      runs,
    );
  });

  it('a stubbed tool result comes back as text in the same place; every other part is untouched (property)', () => {
    fc.assert(
      fc.property(prompt, fc.nat(), (input, pick) => {
        const messages = fromLanguageModelPrompt(input);
        const tools = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
        fc.pre(tools.length > 0);
        const target = tools[pick % tools.length]!;
        const original = messages[target] as Extract<Message, { role: 'tool' }>;
        const stub = '[tool result 1 archived: tool0 x, 100 tokens; restore with restore_tool_result("r1")]';
        messages[target] = { ...original, content: stub, meta: { ...original.meta, ctxkit: { kind: 'stub', by: 'microcompact', handle: 'r1' } } };
        const back = toLanguageModelPrompt(messages);
        expect(back).toHaveLength(input.length);
        const changed = back.flatMap((message, index) => (message === input[index] ? [] : [index]));
        expect(changed).toHaveLength(1);
        const message = back[changed[0]!]!;
        expect(message.role).toBe('tool');
        const results = (message.content as { type: string; toolCallId?: string; output?: unknown }[]).filter((part) => part.type === 'tool-result');
        expect(results.find((part) => part.toolCallId === original.toolCallId)?.output).toEqual({ type: 'text', value: stub });
        const before = (input[changed[0]!]!.content as { type: string; toolCallId?: string }[]).filter((part) => part.toolCallId !== original.toolCallId);
        const after = (message.content as { type: string; toolCallId?: string }[]).filter((part) => part.toolCallId !== original.toolCallId);
        expect(after).toEqual(before);
      }),
      runs,
    );
  });

  it('converts the same prompt rebuilt from scratch to the same ctxkit objects, with a cache', () => {
    fc.assert(
      fc.property(prompt, (input) => {
        const cache = createConversionCache();
        const first = fromLanguageModelPrompt(input, cache);
        const again = fromLanguageModelPrompt(deepCopy(input), cache);
        again.forEach((message, index) => {
          if (!message.meta?.aiSdk || (message.meta.aiSdk as { trailing?: unknown; leading?: unknown }).trailing) return;
          expect(message).toBe(first[index]);
        });
      }),
      runs,
    );
  });

  it('shows ctxkit text, images and tool calls it can measure', () => {
    const messages = fromLanguageModelPrompt([
      { role: 'system', content: 'Be brief.', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this?' },
          { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Look first.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'look', input: { at: 'top' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'look', output: { type: 'json', value: { seen: 'a cat' } } }] },
    ]);
    expect(messages.map(({ meta: _meta, ...rest }) => rest)).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this?' },
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Look first.' }], toolCalls: [{ id: 'c1', name: 'look', arguments: '{"at":"top"}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'look', content: '{"seen":"a cat"}' },
    ]);
  });

  it('builds messages ctxkit wrote (a summary, a reinjected block) in the prompt shape', () => {
    const prompt = toLanguageModelPrompt([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summary so far' },
          { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' },
        ],
        meta: { ctxkit: { kind: 'summary', by: 'summary' } },
      },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c9', name: 'read', arguments: '{"path":"a"}' }] },
      { role: 'tool', toolCallId: 'c9', toolName: 'read', content: 'file text' },
    ]);
    expect(prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summary so far' },
          { type: 'file', mediaType: 'image/png', data: { type: 'url', url: new URL('https://example.com/a.png') } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool-call', toolCallId: 'c9', toolName: 'read', input: { path: 'a' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c9', toolName: 'read', output: { type: 'text', value: 'file text' } }] },
    ]);
  });

  it('rejects a malformed message with a typed error naming its index and field', () => {
    expect(() => fromLanguageModelPrompt([{ role: 'user', content: [] }, { role: 'robot', content: 'x' } as never])).toThrow(CtxkitError);
    expect(() => fromLanguageModelPrompt([{ role: 'user', content: [] }, { role: 'robot', content: 'x' } as never])).toThrow(
      '[ctxkit:ai-sdk] message 1 role: expected system, user, assistant or tool, got "robot"',
    );
    expect(() => fromLanguageModelPrompt([{ role: 'tool', content: 'x' } as never])).toThrow('message 0 (tool) content: expected an array of parts');
  });
});

describe('ModelMessage ⇄ ctxkit messages', () => {
  it('round-trips string content, image parts and approvals unchanged', () => {
    const input: ModelMessage[] = [
      { role: 'user', content: 'Look at this' },
      { role: 'user', content: [{ type: 'image', image: new URL('https://example.com/x.png'), mediaType: 'image/png' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'rm', input: { path: '/tmp/x' } },
          { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a1', approved: true }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'rm', output: { type: 'text', value: 'removed' } }] },
      { role: 'assistant', content: 'Done.' },
    ];
    const messages = fromModelMessages(input);
    expect(validateTranscript(messages)).toEqual([]);
    expect(messages[1]).toMatchObject({ content: [{ type: 'image', mediaType: 'image/png', url: 'https://example.com/x.png' }] });
    expect(toModelMessages(messages)).toEqual(input);
  });

  it('writes a rewritten image as an AI SDK image part', () => {
    expect(toModelMessages([{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: 'AAAA' }] }])).toEqual([
      { role: 'user', content: [{ type: 'image', image: 'AAAA', mediaType: 'image/png' }] },
    ]);
  });
});
