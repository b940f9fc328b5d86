import { CtxkitError, type StorePlugin } from '@ctxkit/core';
import type { ContextManager } from '@ctxkit/engine';
import { createRestoreHandler, restoreToolResultTool } from '@ctxkit/tier-microcompact';
import { jsonSchema, type Tool, tool } from 'ai';

/** The name the restore tool must have in the `tools` object: stubs tell the model to call it by this name. */
export const restoreToolName = restoreToolResultTool.name;

/** Options for {@link restoreTool}. */
export interface RestoreToolOptions {
  /** The store the microcompaction tier archives into. @default the store registered with the manager */
  store?: StorePlugin;
}

/** The store a manager's tiers archive into: the first store plugin registered with it. */
export function storeOf(manager: ContextManager, store?: StorePlugin): StorePlugin {
  const found = store ?? (manager?.registry?.all('store')[0] as StorePlugin | undefined);
  if (!found) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'ai-sdk',
      message:
        'restoreTool needs the store the microcompaction tier archives into: register one with the manager (createCtxkit does; with createContextManager add memoryStore() to plugins) or pass { store }',
    });
  }
  return found;
}

/**
 * The `restore_tool_result` tool as an AI SDK `tool()`, answering from the manager's archive: add it to
 * the tools under {@link restoreToolName} so the model can get back any tool result ctxkit archived as a stub.
 * An unknown handle gets a text the model can act on; a failing store throws (an outage to see).
 * @throws CtxkitError INVALID_ARGUMENT when the manager has no store registered and none is given
 * @example
 * ```ts
 * const tools = { ...myTools, restore_tool_result: restoreTool(manager) };
 * ```
 */
export function restoreTool(manager: ContextManager, options: RestoreToolOptions = {}): Tool<{ handle: string }, string> {
  const restore = createRestoreHandler(storeOf(manager, options.store));
  return tool({
    description: restoreToolResultTool.description,
    inputSchema: jsonSchema<{ handle: string }>(structuredClone(restoreToolResultTool.inputSchema) as unknown as Parameters<typeof jsonSchema>[0]),
    execute: (input) => restore(input),
  });
}
