import { CtxkitError, type StorePlugin } from '@ctxkit/core';
import type { ContextManager } from '@ctxkit/engine';
import { createRestoreHandler, restoreToolResultTool } from '@ctxkit/tier-microcompact';
import { type StructuredToolInterface, tool } from '@langchain/core/tools';

/** Options for {@link restoreTool}. */
export interface RestoreToolOptions {
  /** The store the microcompaction tier archives into. @default the store registered with the manager */
  store?: StorePlugin;
}

/**
 * The `restore_tool_result` tool as a LangChain tool, answering from the manager's archive: add it to the
 * agent's tools so the model can get back any tool result ctxkit archived as a stub.
 * @throws CtxkitError INVALID_ARGUMENT when the manager has no store registered and none is given
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: [...tools, restoreTool(manager)], middleware: [ctxkitMiddleware({ manager })] });
 * ```
 */
export function restoreTool(manager: ContextManager, options: RestoreToolOptions = {}): StructuredToolInterface {
  const store = options.store ?? (manager?.registry?.all('store')[0] as StorePlugin | undefined);
  if (!store) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'langchain',
      message:
        'restoreTool needs the store the microcompaction tier archives into: register one with the manager (createCtxkit does; with createContextManager add memoryStore() to plugins) or pass { store }',
    });
  }
  const restore = createRestoreHandler(store);
  return tool(async (input: { handle: string }) => restore(input), {
    name: restoreToolResultTool.name,
    description: restoreToolResultTool.description,
    schema: structuredClone(restoreToolResultTool.inputSchema) as never,
  }) as unknown as StructuredToolInterface;
}
