import { CtxkitError } from '@ctxkit/core';
import { HumanMessage } from '@langchain/core/messages';
import { type StructuredToolInterface, tool } from '@langchain/core/tools';
import { createCtxkit } from 'ctxkit';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { readFile, ScriptedChatModel, systemPrompt } from './__fixtures__/scripted-chat-model.ts';
import { ctxkitMiddleware } from './middleware.ts';
import { restoreTool } from './restore-tool.ts';

const window = 16_000;
const steps = 110;
const newManager = () => createCtxkit({ model: 'scripted:scripted-model', contextWindow: window, maxOutputTokens: 1_024, editedFiles: false });

describe('ctxkitMiddleware in a real createAgent loop', () => {
  it(`${steps} steps in a ${window}-token window never send a request over it, keep the system prompt and every pair, and finish`, async () => {
    const manager = newManager();
    const model = new ScriptedChatModel({ steps });
    const agent = createAgent({ model, tools: [readFile, restoreTool(manager)], systemPrompt, middleware: [ctxkitMiddleware({ manager })] });
    const result = await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] }, { recursionLimit: 1_000 });
    expect(String(result.messages.at(-1)?.content)).toContain('src/env.ts');
    expect(model.observations).toHaveLength(steps);
    expect(Math.max(...model.observations.map((seen) => seen.tokens))).toBeLessThanOrEqual(window);
    expect(model.observations.every((seen) => seen.systemFirst)).toBe(true);
    expect(model.observations.flatMap((seen) => seen.unpaired)).toEqual([]);
    // The agent's state keeps the whole history: only what the model is sent is compacted.
    expect(result.messages.length).toBe(1 + 2 * (steps - 1) + 1);
  });

  it('agent.stream: a streamed 60-step run keeps the same guarantees', async () => {
    const manager = newManager();
    const model = new ScriptedChatModel({ steps: 60 });
    const agent = createAgent({ model, tools: [readFile, restoreTool(manager)], systemPrompt, middleware: [ctxkitMiddleware({ manager })] });
    let updates = 0;
    for await (const _chunk of await agent.stream({ messages: [new HumanMessage('Find where the port is configured.')] }, { recursionLimit: 1_000, streamMode: 'updates' })) updates += 1;
    expect(updates).toBeGreaterThanOrEqual(2 * 59);
    expect(model.observations).toHaveLength(60);
    expect(Math.max(...model.observations.map((seen) => seen.tokens))).toBeLessThanOrEqual(window);
    expect(model.observations.every((seen) => seen.systemFirst)).toBe(true);
    expect(model.observations.flatMap((seen) => seen.unpaired)).toEqual([]);
  });

  it('without the middleware the same loop goes over the window (the test can fail)', async () => {
    const model = new ScriptedChatModel({ steps: 20 });
    const agent = createAgent({ model, tools: [readFile], systemPrompt });
    await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] }, { recursionLimit: 100 });
    expect(Math.max(...model.observations.map((seen) => seen.tokens))).toBeGreaterThan(window);
  });

  it('records usage_metadata, so the next prepare measures from the provider figure; model defaults to llmType:model', async () => {
    const manager = newManager();
    const reports: { source: string; model: string }[] = [];
    const agent = createAgent({
      model: new ScriptedChatModel({ steps: 3 }),
      tools: [readFile],
      systemPrompt,
      middleware: [ctxkitMiddleware({ manager, onPrepare: (report) => reports.push({ source: report.measurement.source, model: report.model }) })],
    });
    await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] });
    expect(reports.map((report) => report.model)).toEqual(['scripted:scripted-model', 'scripted:scripted-model', 'scripted:scripted-model']);
    expect(reports[0]!.source).not.toBe('reported');
    expect(reports.slice(1).map((report) => report.source)).toEqual(['reported', 'reported']);
  });

  it('counts the tools the agent sends in the fixed floor, as their JSON Schema', async () => {
    // A tool whose definition alone is about 2,000 tokens: a floor that leaves it out would compact too late.
    const manual = tool(async () => 'ok', {
      name: 'lookup_manual',
      description: Array.from({ length: 400 }, (_, line) => `Section ${line} explains option opt${line}.`).join(' '),
      schema: z.object({ section: z.number().describe('Section number') }),
    });
    const firstFloor = async (tools: StructuredToolInterface[]) => {
      const floors: number[] = [];
      const agent = createAgent({
        model: new ScriptedChatModel({ steps: 2 }),
        tools,
        systemPrompt,
        middleware: [ctxkitMiddleware({ manager: newManager(), onPrepare: (report) => floors.push(report.measurement.floor) })],
      });
      await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] });
      return floors[0]!;
    };
    const withManual = await firstFloor([readFile, manual]);
    const without = await firstFloor([readFile]);
    expect(withManual - without).toBeGreaterThan(2_000);
  });

  it('an overflow error is recovered once: the call is retried with the compacted messages', async () => {
    const manager = newManager();
    const model = new ScriptedChatModel({ steps: 6, failAt: 4 });
    const decisions: string[] = [];
    const agent = createAgent({
      model,
      tools: [readFile],
      systemPrompt,
      middleware: [ctxkitMiddleware({ manager, classifyError: () => ({ kind: 'context_overflow', fallback: false, limitTokens: 6_000 }), onPrepare: (report) => decisions.push(report.decision) })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] });
    expect(String(result.messages.at(-1)?.content)).toContain('src/env.ts');
    expect(decisions).toContain('forced');
    expect(Math.max(...model.observations.slice(3).map((seen) => seen.tokens))).toBeLessThanOrEqual(6_000);
  });

  it('an error that is not an overflow is rethrown', async () => {
    const manager = newManager();
    const agent = createAgent({
      model: new ScriptedChatModel({ steps: 2, failAt: 1, failure: new Error('invalid api key') }),
      tools: [readFile],
      middleware: [ctxkitMiddleware({ manager, classifyError: () => ({ kind: 'other', fallback: false }) })],
    });
    await expect(agent.invoke({ messages: [new HumanMessage('hi')] })).rejects.toThrow('invalid api key');
  });

  it('rejects a missing manager with a typed error', () => {
    expect(() => ctxkitMiddleware({} as never)).toThrow(CtxkitError);
    expect(() => ctxkitMiddleware({} as never)).toThrow('[ctxkit:langchain] ctxkitMiddleware needs { manager }');
  });
});
