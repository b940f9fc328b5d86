import { CtxkitError } from '@ctxkit/core';
import { createCtxkit } from 'ctxkit';
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { readFile, scriptedAgent, systemPrompt } from './__fixtures__/scripted-agent.ts';
import { ctxkitMiddleware, modelIdOf } from './middleware.ts';
import { restoreTool } from './restore-tool.ts';

const window = 16_000;
const steps = 120;

function newManager() {
  const compactions: number[] = [];
  const manager = createCtxkit({
    model: 'mock-provider:mock-model-id',
    contextWindow: window,
    maxOutputTokens: 1_024,
    editedFiles: false,
    onEvent: (event) => {
      if (event.type === 'compaction-end') compactions.push(event.after);
    },
  });
  return { manager, compactions };
}

describe('ctxkitMiddleware in a real AI SDK tool loop', () => {
  it(`generateText: ${steps} steps in a ${window}-token window never send a prompt over it, keep the system prompt and every pair, and finish`, async () => {
    const { manager, compactions } = newManager();
    const agent = scriptedAgent({ steps });
    const result = await generateText({
      model: wrapLanguageModel({ model: agent.model, middleware: ctxkitMiddleware({ manager }) }),
      system: systemPrompt,
      prompt: 'Find where the port is configured.',
      tools: { read_file: readFile, restore_tool_result: restoreTool(manager) },
      stopWhen: stepCountIs(steps + 5),
    });
    expect(result.text).toContain('src/env.ts');
    expect(result.steps).toHaveLength(steps);
    expect(agent.observations).toHaveLength(steps);
    expect(Math.max(...agent.observations.map((seen) => seen.tokens))).toBeLessThanOrEqual(window);
    expect(agent.observations.every((seen) => seen.systemFirst)).toBe(true);
    expect(agent.observations.flatMap((seen) => seen.unpaired)).toEqual([]);
    expect(compactions.length).toBeGreaterThan(0);
  });

  it('without the middleware the same loop goes far over the window (the test can fail)', async () => {
    const agent = scriptedAgent({ steps: 20 });
    await generateText({ model: agent.model, system: systemPrompt, prompt: 'Find where the port is configured.', tools: { read_file: readFile }, stopWhen: stepCountIs(25) });
    expect(Math.max(...agent.observations.map((seen) => seen.tokens))).toBeGreaterThan(window);
  });

  it(`streamText: ${steps} streamed steps keep the same guarantees`, async () => {
    const { manager } = newManager();
    const agent = scriptedAgent({ steps });
    const result = streamText({
      model: wrapLanguageModel({ model: agent.model, middleware: ctxkitMiddleware({ manager }) }),
      system: systemPrompt,
      prompt: 'Find where the port is configured.',
      tools: { read_file: readFile, restore_tool_result: restoreTool(manager) },
      stopWhen: stepCountIs(steps + 5),
    });
    expect(await result.text).toContain('src/env.ts');
    expect(await result.steps).toHaveLength(steps);
    expect(Math.max(...agent.observations.map((seen) => seen.tokens))).toBeLessThanOrEqual(window);
    expect(agent.observations.every((seen) => seen.systemFirst)).toBe(true);
    expect(agent.observations.flatMap((seen) => seen.unpaired)).toEqual([]);
  });

  it('records the usage each call reports, so the next prepare measures from the provider figure', async () => {
    const { manager } = newManager();
    const agent = scriptedAgent({ steps: 3 });
    const reports: string[] = [];
    await generateText({
      model: wrapLanguageModel({ model: agent.model, middleware: ctxkitMiddleware({ manager, onPrepare: (report) => reports.push(report.measurement.source) }) }),
      system: systemPrompt,
      prompt: 'Find where the port is configured.',
      tools: { read_file: readFile },
      stopWhen: stepCountIs(5),
    });
    expect(reports[0]).not.toBe('reported');
    expect(reports.slice(1).every((basis) => basis === 'reported')).toBe(true);
  });

  it('an overflow error is recovered once: the call is retried with the compacted prompt', async () => {
    const { manager } = newManager();
    const agent = scriptedAgent({ steps: 6, failFirstCallAt: 4 });
    const actions: string[] = [];
    const result = await generateText({
      model: wrapLanguageModel({
        model: agent.model,
        middleware: ctxkitMiddleware({ manager, classifyError: () => ({ kind: 'context_overflow', fallback: false, limitTokens: 6_000 }), onPrepare: (report) => actions.push(report.decision) }),
      }),
      system: systemPrompt,
      prompt: 'Find where the port is configured.',
      tools: { read_file: readFile },
      stopWhen: stepCountIs(10),
      maxRetries: 0,
    });
    expect(result.steps).toHaveLength(6);
    expect(actions).toContain('forced');
    expect(Math.max(...agent.observations.slice(3).map((seen) => seen.tokens))).toBeLessThanOrEqual(6_000);
  });

  it('an error that is not an overflow is rethrown as it came', async () => {
    const { manager } = newManager();
    const agent = scriptedAgent({ steps: 3, failFirstCallAt: 1, failure: new Error('invalid api key') });
    await expect(
      generateText({
        model: wrapLanguageModel({ model: agent.model, middleware: ctxkitMiddleware({ manager, classifyError: () => ({ kind: 'other', fallback: false }) }) }),
        prompt: 'hi',
        maxRetries: 0,
      }),
    ).rejects.toThrow('invalid api key');
  });

  it('model defaults to provider:modelId of the wrapped model', async () => {
    const { manager } = newManager();
    const agent = scriptedAgent({ steps: 1 });
    const models: string[] = [];
    await generateText({ model: wrapLanguageModel({ model: agent.model, middleware: ctxkitMiddleware({ manager, onPrepare: (report) => models.push(report.model) }) }), prompt: 'hi' });
    expect(models).toEqual(['mock-provider:mock-model-id']);
  });

  it('names the model as ctxkit provider plugins are named', () => {
    const named = (provider: string, modelId: string) => modelIdOf(new MockLanguageModelV4({ provider, modelId }));
    expect(named('openai.responses', 'gpt-4o')).toBe('openai:gpt-4o');
    expect(named('anthropic.messages', 'claude-sonnet-4-5')).toBe('anthropic:claude-sonnet-4-5');
    expect(named('google.generative-ai', 'gemini-2.5-pro')).toBe('gemini:gemini-2.5-pro');
    expect(named('ollama', 'qwen3:8b')).toBe('ollama:qwen3:8b');
  });

  it('rejects a missing manager with a typed error', () => {
    expect(() => ctxkitMiddleware({} as never)).toThrow(CtxkitError);
    expect(() => ctxkitMiddleware({} as never)).toThrow('[ctxkit:ai-sdk] ctxkitMiddleware needs { manager }');
  });
});
