import { CtxkitError } from '@ctxkit/core';
import { generateText, stepCountIs, streamText } from 'ai';
import { createCtxkit } from 'ctxkit';
import { describe, expect, it } from 'vitest';
import { readFile, scriptedAgent, systemPrompt } from './__fixtures__/scripted-agent.ts';
import { ctxkitPrepareStep } from './prepare-step.ts';

const window = 16_000;
const steps = 110;
const newManager = () => createCtxkit({ model: 'mock-provider:mock-model-id', contextWindow: window, maxOutputTokens: 1_024, editedFiles: false });

/** The tool loop both generateText and streamText run: the scripted agent's model, prompt and tool. */
const toolLoop = (agent: ReturnType<typeof scriptedAgent>, maxSteps: number) => ({
  model: agent.model,
  system: systemPrompt,
  prompt: 'Find where the port is configured.',
  tools: { read_file: readFile },
  stopWhen: stepCountIs(maxSteps),
});

/** What every step must have kept: the window, the system prompt first, and every tool call paired. */
function expectStepsKeptTheGuarantees(agent: ReturnType<typeof scriptedAgent>): void {
  expect(Math.max(...agent.observations.map((seen) => seen.tokens))).toBeLessThanOrEqual(window);
  expect(agent.observations.every((seen) => seen.systemFirst)).toBe(true);
  expect(agent.observations.flatMap((seen) => seen.unpaired)).toEqual([]);
}

describe('ctxkitPrepareStep in a real AI SDK tool loop', () => {
  it(`generateText: ${steps} steps never send a prompt over the ${window}-token window, keep the system prompt and every pair, and finish`, async () => {
    const manager = newManager();
    const agent = scriptedAgent({ steps });
    const result = await generateText({ ...toolLoop(agent, steps + 5), prepareStep: ctxkitPrepareStep(manager) });
    expect(result.text).toContain('src/env.ts');
    expect(agent.observations).toHaveLength(steps);
    expectStepsKeptTheGuarantees(agent);
  });

  it(`streamText: ${steps} streamed steps keep the same guarantees`, async () => {
    const manager = newManager();
    const agent = scriptedAgent({ steps });
    const result = streamText({ ...toolLoop(agent, steps + 5), prepareStep: ctxkitPrepareStep(manager) });
    expect(await result.text).toContain('src/env.ts');
    expectStepsKeptTheGuarantees(agent);
  });

  it("records the previous step's usage and measures the instructions as the system prompt", async () => {
    const manager = newManager();
    const agent = scriptedAgent({ steps: 3 });
    const reports: { source: string; floor: number }[] = [];
    await generateText({
      ...toolLoop(agent, 5),
      prepareStep: ctxkitPrepareStep(manager, { onPrepare: (report) => reports.push({ source: report.measurement.source, floor: report.measurement.floor }) }),
    });
    expect(reports[0]!.source).not.toBe('reported');
    expect(reports.slice(1).map((report) => report.source)).toEqual(['reported', 'reported']);
    expect(reports[0]!.floor).toBeGreaterThan(0);
  });

  it('leaves the messages alone under the threshold', async () => {
    const prepareStep = ctxkitPrepareStep(newManager());
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const result = await prepareStep({ steps: [], model: 'mock-provider:mock-model-id', messages });
    expect(result.messages).toBe(messages);
  });

  it('rejects a missing manager with a typed error', () => {
    expect(() => ctxkitPrepareStep(undefined as never)).toThrow(CtxkitError);
    expect(() => ctxkitPrepareStep(undefined as never)).toThrow('[ctxkit:ai-sdk] ctxkitPrepareStep needs a context manager');
  });
});
