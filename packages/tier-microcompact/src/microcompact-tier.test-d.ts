import { createRegistry, memoryStore, type TierPlugin } from '@ctxkit/core';
import { describe, expectTypeOf, it } from 'vitest';
import { microcompactTier } from './microcompact-tier.ts';
import { createRestoreHandler, type RestoreInput } from './restore-handler.ts';
import { restoreToolResultTool } from './restore-tool.ts';

describe('microcompact typing', () => {
  it('registers under its literal id', () => {
    const registry = createRegistry([microcompactTier(), memoryStore()]);
    expectTypeOf(registry.tier('microcompact')).toEqualTypeOf<TierPlugin<'microcompact'>>();
    // @ts-expect-error only 'microcompact' was registered
    registry.tier('images');
  });

  it('keeps the tool name and schema literal, and takes the handle in either form', () => {
    expectTypeOf(restoreToolResultTool.name).toEqualTypeOf<'restore_tool_result'>();
    expectTypeOf(restoreToolResultTool.inputSchema.required).toEqualTypeOf<readonly ['handle']>();
    expectTypeOf(createRestoreHandler(memoryStore())).parameter(0).toEqualTypeOf<RestoreInput>();
    expectTypeOf(createRestoreHandler(memoryStore())).returns.toEqualTypeOf<Promise<string>>();
  });
});
