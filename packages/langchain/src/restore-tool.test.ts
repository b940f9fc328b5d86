import { CtxkitError, memoryStore } from '@ctxkit/core';
import { createContextManager } from '@ctxkit/engine';
import { HumanMessage } from '@langchain/core/messages';
import { createCtxkit } from 'ctxkit';
import { describe, expect, it } from 'vitest';
import { fromBaseMessages } from './convert.ts';
import { restoreTool } from './restore-tool.ts';

describe('restoreTool (LangChain)', () => {
  it('restores, byte for byte, a tool result the microcompaction tier archived', async () => {
    const store = memoryStore();
    const manager = createCtxkit({ model: 'm', contextWindow: 16_000, maxOutputTokens: 1_024, store, editedFiles: false });
    const file = `// big file\n${'export const line = 1;\n'.repeat(300)}`;
    const history = [new HumanMessage('read them')];
    const messages = fromBaseMessages(history);
    for (let index = 0; index < 8; index += 1) {
      messages.push(
        { role: 'assistant', content: '', toolCalls: [{ id: `c${index}`, name: 'read_file', arguments: `{"path":"f${index}"}` }] },
        { role: 'tool', toolCallId: `c${index}`, toolName: 'read_file', content: file },
      );
    }
    const prepared = await manager.prepare(messages);
    const microcompact = prepared.report.tiers.find((tier) => tier.id === 'microcompact');
    expect(microcompact?.reason).toMatch(/archived \d+ tool results as stubs \(\d+ new: r1/);
    const tool = restoreTool(manager);
    expect(tool.name).toBe('restore_tool_result');
    expect(await tool.invoke({ handle: 'r1' })).toBe(file);
    expect(await tool.invoke({ handle: 'r99' })).toMatch(/^No archived tool result "r99"/);
  });

  it('needs a store: a manager without one gets a typed error', () => {
    const manager = createContextManager({ model: 'm', contextWindow: 16_000 });
    expect(() => restoreTool(manager)).toThrow(CtxkitError);
    expect(() => restoreTool(manager)).toThrow('[ctxkit:langchain] restoreTool needs the store');
    expect(() => restoreTool(manager, { store: memoryStore() })).not.toThrow();
  });
});
