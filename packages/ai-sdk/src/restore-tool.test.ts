import type { LanguageModelV4GenerateResult, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { CtxkitError, memoryStore } from '@ctxkit/core';
import { createContextManager } from '@ctxkit/engine';
import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createCtxkit } from 'ctxkit';
import { describe, expect, it } from 'vitest';
import { readFile, systemPrompt } from './__fixtures__/scripted-agent.ts';
import { ctxkitMiddleware } from './middleware.ts';
import { restoreTool, restoreToolName } from './restore-tool.ts';

const usage = { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } };
const toolResultText = (prompt: LanguageModelV4Prompt, id: string) => {
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result' && part.toolCallId === id && part.output.type === 'text') return part.output.value;
  }
  return undefined;
};

describe('restoreTool', () => {
  it('gives the model back, byte for byte, a tool result ctxkit archived as a stub', async () => {
    const manager = createCtxkit({ model: 'mock-provider:mock-model-id', contextWindow: 32_000, maxOutputTokens: 1_024, editedFiles: false, microcompact: { keepRecent: 1 } });
    const original = await readFile.execute!({ path: 'src/module-1.ts' }, { toolCallId: 'x', messages: [] } as never);
    let handle: string | undefined;
    let restored: string | undefined;
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }): Promise<LanguageModelV4GenerateResult> => {
        step += 1;
        if (handle === undefined) {
          const stub = JSON.stringify(prompt).match(/restore_tool_result\(\\"(r\d+)\\"\)/);
          if (stub) handle = stub[1];
        } else if (restored === undefined) {
          restored = toolResultText(prompt, 'restore');
        }
        const call = (toolCallId: string, toolName: string, input: unknown) => ({
          content: [{ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) }],
          finishReason: { unified: 'tool-calls' as const, raw: undefined },
          usage,
          warnings: [],
        });
        if (handle !== undefined && restored === undefined) return call('restore', restoreToolName, { handle });
        if (restored !== undefined || step > 40) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
        return call(`call_${step}`, 'read_file', { path: `src/module-${step}.ts` });
      },
    });
    await generateText({
      model: wrapLanguageModel({ model, middleware: ctxkitMiddleware({ manager }) }),
      system: systemPrompt,
      prompt: 'Read the modules.',
      tools: { read_file: readFile, [restoreToolName]: restoreTool(manager) },
      stopWhen: stepCountIs(60),
    });
    expect(handle).toBe('r1');
    expect(restored).toBe(original);
  });

  it('answers an unknown handle with a text the model can act on', async () => {
    const tool = restoreTool(createCtxkit({ model: 'm', contextWindow: 16_000 }));
    await expect(tool.execute!({ handle: 'r42' }, { toolCallId: 'x', messages: [] } as never)).resolves.toMatch(/^No archived tool result "r42"/);
  });

  it('needs a store: a manager without one gets a typed error that says how to fix it', () => {
    const manager = createContextManager({ model: 'm', contextWindow: 16_000 });
    expect(() => restoreTool(manager)).toThrow(CtxkitError);
    expect(() => restoreTool(manager)).toThrow('[ctxkit:ai-sdk] restoreTool needs the store the microcompaction tier archives into');
    expect(() => restoreTool(manager, { store: memoryStore() })).not.toThrow();
  });
});
