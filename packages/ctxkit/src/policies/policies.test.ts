import { type Message, textOf, validateTranscript } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { anthropicContextEditingPolicy } from './anthropic-context-editing.ts';
import { nonePolicy, slidingWindowPolicy, summarizeAt90Policy } from './baselines.ts';
import { codexDefaults, codexPolicy } from './codex.ts';
import { geminiCliPolicy, geminiSplitPoint } from './gemini-cli.ts';
import { observationMaskingPolicy } from './observation-masking.ts';
import { opencodePolicy } from './opencode.ts';
import type { PolicyContext } from './replay-policy.ts';

/** A context that counts characters ÷ 4 and records every summary request. */
function contextOf(overrides: Partial<PolicyContext> = {}) {
  const summaries: { messages: readonly Message[]; instructions: string }[] = [];
  const countText = (text: string) => Math.ceil(text.length / 4);
  const context: PolicyContext = {
    window: 32_000,
    maxOutputTokens: 4_096,
    triggerTokens: undefined,
    countText,
    tokens: (messages) =>
      messages.reduce(
        (sum, message) => sum + 4 + countText(textOf(message.content)) + (message.role === 'assistant' ? (message.toolCalls ?? []).reduce((calls, call) => calls + countText(call.arguments), 0) : 0),
        0,
      ),
    summarize: async (messages, instructions) => {
      summaries.push({ messages, instructions });
      return `summary of ${messages.length} messages`;
    },
    ...overrides,
  };
  return { context, summaries };
}

/** A tool loop: system, task, then `rounds` rounds of a call and a result of `size` characters. */
function toolLoop(rounds: number, size = 400, users: Record<number, string> = {}): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the loader in src/loader.py.' },
  ];
  for (let round = 0; round < rounds; round += 1) {
    if (users[round]) messages.push({ role: 'user', content: users[round]! });
    messages.push({ role: 'assistant', content: `Step ${round}.`, toolCalls: [{ id: `c${round}`, name: 'bash', arguments: JSON.stringify({ command: `cat f${round}.py` }) }] });
    messages.push({ role: 'tool', toolCallId: `c${round}`, content: `line of f${round}\n`.repeat(Math.ceil(size / 12)).slice(0, size) });
  }
  return messages;
}

const toolResults = (messages: readonly Message[]) => messages.filter((message) => message.role === 'tool');

describe('none and sliding-window', () => {
  it('none sends the history as it is', async () => {
    const history = toolLoop(5);
    expect((await nonePolicy(contextOf().context).step(history)).request).toBe(history);
  });

  it('sliding-window drops the oldest rounds, the task too, until the request fits under the trigger', async () => {
    const { context } = contextOf({ triggerTokens: 2_000 });
    const history = toolLoop(40);
    const { request, compacted } = await slidingWindowPolicy(context).step(history);
    expect(compacted).toBe(true);
    expect(context.tokens(request)).toBeLessThanOrEqual(2_000);
    expect(request[0]).toBe(history[0]);
    expect(request).not.toContain(history[1]);
    expect(validateTranscript(request)).toEqual([]);
  });
});

describe('summarize-at-90', () => {
  it('summarizes all but the last round past 90% of the window, and keeps the summary as history', async () => {
    const { context, summaries } = contextOf({ window: 4_000, maxOutputTokens: 500 });
    const history = toolLoop(40);
    const { request, history: next } = await summarizeAt90Policy(context).step(history);
    expect(summaries).toHaveLength(1);
    expect(request).toHaveLength(4);
    expect(textOf(request[1]!.content)).toContain('summary of');
    expect(next).toBe(request);
  });
});

describe('observation-masking', () => {
  it('keeps the newest 10 tool results verbatim and every action, masking older ones with the line count', async () => {
    const history = toolLoop(14, 48);
    const { request, compacted } = await observationMaskingPolicy(contextOf().context).step(history);
    expect(compacted).toBe(true);
    const results = toolResults(request);
    expect(results.slice(0, 4).map((message) => message.content)).toEqual(Array(4).fill('Old environment output: (5 lines omitted)'));
    expect(results.slice(4)).toEqual(toolResults(history).slice(4));
    expect(request.filter((message) => message.role === 'assistant')).toEqual(history.filter((message) => message.role === 'assistant'));
  });

  it('leaves a masked result the same object on the next step, so the cache holds up to the newly masked one', async () => {
    const policy = observationMaskingPolicy(contextOf().context);
    const history = toolLoop(14);
    const first = (await policy.step(history)).request;
    const grown = [...history, ...toolLoop(15).slice(-2)];
    const second = (await policy.step(grown)).request;
    expect(second[3]).toBe(first[3]);
  });

  it('masks only over the trigger when one is set', async () => {
    const history = toolLoop(14, 48);
    const { request, compacted } = await observationMaskingPolicy(contextOf({ triggerTokens: 100_000 }).context).step(history);
    expect(compacted).toBe(false);
    expect(request).toBe(history);
  });
});

describe('codex', () => {
  it('compacts past 90% of the window into the system, the user messages and the summary after its prefix', async () => {
    const { context, summaries } = contextOf({ window: 4_000 });
    const history = toolLoop(40);
    const { request, compacted } = await codexPolicy(context).step(history);
    expect(compacted).toBe(true);
    expect(summaries[0]!.instructions).toContain('CONTEXT CHECKPOINT COMPACTION');
    expect(request.map((message) => message.role)).toEqual(['system', 'user', 'user']);
    expect(request[1]).toBe(history[1]);
    expect(textOf(request[2]!.content).startsWith(`${codexDefaults.summaryPrefix}\nsummary of`)).toBe(true);
    expect(toolResults(request)).toEqual([]);
  });

  it('stays under 90% of the window, and cuts an old user message that crosses the 20,000-token budget in the middle', async () => {
    const { context } = contextOf({ window: 4_000 });
    expect((await codexPolicy(context).step(toolLoop(2))).compacted).toBe(false);
    const history = toolLoop(2);
    history[1] = { role: 'user', content: `${'a'.repeat(60_000)}${'z'.repeat(60_000)}` };
    const { request } = await codexPolicy(contextOf({ window: 4_000 }).context).step(history);
    const kept = textOf(request[1]!.content);
    expect(kept).toMatch(/^a+…10000 tokens truncated…z+$/);
  });
});

describe('gemini-cli', () => {
  it('splits at the first user message that is not a tool result past 70% of the characters', () => {
    const body = toolLoop(20, 400, { 5: 'Now the cache.', 15: 'And the tests.' }).slice(1);
    expect(body[geminiSplitPoint(body, 0.7)]).toMatchObject({ role: 'user', content: 'And the tests.' });
  });

  it('compresses nothing in a tool loop whose only user message is the task', async () => {
    const { context, summaries } = contextOf({ window: 8_000 });
    const history = toolLoop(60);
    const { request } = await geminiCliPolicy(context).step(history);
    expect(summaries).toEqual([]);
    expect(request).toEqual(history);
  });

  it("replaces the older 70% with a snapshot and the model's acknowledgement when a user message allows it", async () => {
    const { context, summaries } = contextOf({ window: 8_000 });
    const history = toolLoop(60, 400, { 50: 'Now run the tests.' });
    const { request, compacted } = await geminiCliPolicy(context).step(history);
    expect(compacted).toBe(true);
    expect(summaries[0]!.instructions).toContain('state_snapshot');
    expect(request[2]).toMatchObject({ role: 'assistant', content: 'Got it. Thanks for the additional context!' });
    expect(request[3]).toMatchObject({ role: 'user', content: 'Now run the tests.' });
    expect(validateTranscript(request)).toEqual([]);
  });
});

describe('opencode', () => {
  it('compacts at the window less the output less min(20,000, output), keeping a tail of whole rounds after the summary', async () => {
    const { context, summaries } = contextOf({ window: 20_000, maxOutputTokens: 4_000 });
    // Usable: 20,000 − 4,000 − 4,000 = 12,000; the tail budget is 25% of that, 3,000 tokens.
    const under = toolLoop(100, 400).slice(0, 2 + 2 * 20);
    expect((await opencodePolicy(context).step(under)).compacted).toBe(false);
    // Over 12,000 but under the 16,000 a reserve counted once would allow.
    const history = toolLoop(112, 400);
    expect(context.tokens(history)).toBeGreaterThan(12_000);
    expect(context.tokens(history)).toBeLessThan(16_000);
    const { request, compacted } = await opencodePolicy(context).step(history);
    expect(compacted).toBe(true);
    expect(summaries).toHaveLength(1);
    expect(request[1]!.meta?.ctxkit).toMatchObject({ kind: 'summary', by: 'opencode' });
    const tail = request.slice(3);
    expect(tail.at(-1)).toBe(history.at(-1));
    expect(tail[0]!.role).toBe('assistant');
    expect(context.tokens(tail)).toBeLessThanOrEqual(3_000);
    expect(validateTranscript(request)).toEqual([]);
  });
});

describe('anthropic-context-editing', () => {
  it('clears every tool result but the 3 newest once the input passes 100,000 tokens, keeping the calls', async () => {
    const { context } = contextOf();
    expect((await anthropicContextEditingPolicy(context).step(toolLoop(10))).compacted).toBe(false);
    const history = toolLoop(300, 1_600);
    const { request, compacted } = await anthropicContextEditingPolicy(context).step(history);
    expect(compacted).toBe(true);
    const results = toolResults(request);
    expect(results.slice(0, -3).every((message) => message.content === '[cleared]')).toBe(true);
    expect(results.slice(-3)).toEqual(toolResults(history).slice(-3));
    expect(request.filter((message) => message.role === 'assistant')).toEqual(history.filter((message) => message.role === 'assistant'));
  });

  it('clears at the trigger when one is set', async () => {
    const { request } = await anthropicContextEditingPolicy(contextOf({ triggerTokens: 1_000 }).context).step(toolLoop(20));
    expect(toolResults(request).filter((message) => message.content === '[cleared]')).toHaveLength(17);
  });
});
