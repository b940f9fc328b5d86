import { CtxkitError, conversationStore, memoryStore, type StorePlugin } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import type { ArchivedToolResult } from './archive.ts';
import { createRestoreHandler, parseHandle } from './restore-handler.ts';

function record(handle: string, content: ArchivedToolResult['content']): ArchivedToolResult {
  return { type: 'ctxkit.archived-tool-result', version: 1, handle, toolCallId: `call_${handle}`, toolName: 'read_file', content, tokens: 10, archivedAt: '2026-11-30T00:00:00.000Z' };
}

async function storeWith(...records: ArchivedToolResult[]): Promise<StorePlugin> {
  const store = memoryStore();
  for (const entry of records) await store.setItem(entry.handle, entry);
  return store;
}

describe('createRestoreHandler', () => {
  const original = 'line 1\r\n\ttabbed — ünïcode 日本 😀\n\nlast line without newline';

  it('returns the original string byte for byte', async () => {
    const restore = createRestoreHandler(await storeWith(record('r7', original)));
    expect(await restore({ handle: 'r7' })).toBe(original);
  });

  it('accepts the arguments as the model sent them: JSON text, a bare or quoted handle, any case', async () => {
    const restore = createRestoreHandler(await storeWith(record('r7', original)));
    for (const input of ['{"handle":"r7"}', ' { "handle": "R7" } ', 'r7', '"r7"', "'r7'", { handle: ' r7 ' }, { handle: '"r7"' }]) {
      expect(await restore(input as never), JSON.stringify(input)).toBe(original);
    }
  });

  it('joins text parts with a newline and says which images it could not restore', async () => {
    const content: ArchivedToolResult['content'] = [
      { type: 'text', text: 'Screenshot of the login page:' },
      { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'text', text: 'The button is disabled.' },
    ];
    const restore = createRestoreHandler(await storeWith(record('r2', content)));
    expect(await restore({ handle: 'r2' })).toBe('Screenshot of the login page:\n[image 1 of 1 (image/png) not restored: restore_tool_result returns text only]\nThe button is disabled.');
  });

  it('answers an unknown handle with a text that tells the model what handles look like', async () => {
    const restore = createRestoreHandler(memoryStore());
    const answer = await restore({ handle: 'r99' });
    expect(answer).toBe(
      'No archived tool result "r99". Handles look like "r7" and appear in stubs such as [tool result 7 archived: read_file src/app.ts, 12,480 tokens; restore with restore_tool_result("r7")]; use a handle from a stub in this conversation, or run the original tool again.',
    );
  });

  it('answers a malformed input with a text naming what it got', async () => {
    const restore = createRestoreHandler(memoryStore());
    expect(await restore({ handle: 'src/app.ts' })).toMatch(/^restore_tool_result needs the handle named in an archived tool result's stub, such as "r7" in .*; got \{"handle":"src\/app\.ts"\}\./);
    expect(await restore('{"handle": r7')).toContain('got {"handle": r7.');
    expect(await restore({} as never)).toContain('got {}.');
    expect(await restore(42 as never)).toContain('got 42.');
    expect(await restore({ handle: 'r0' })).toContain('got {"handle":"r0"}');
  });

  it('treats a value of another shape under the key as unknown, not as an archive', async () => {
    const store = memoryStore();
    await store.setItem('r3', { contextWindow: 32_000 });
    expect(await createRestoreHandler(store)('r3')).toMatch(/^No archived tool result "r3"/);
  });

  it('throws STORE_ERROR naming the key when the store fails (an outage the operator should see)', async () => {
    const store: StorePlugin = { ...memoryStore(), getItem: async () => Promise.reject(new Error('ECONNREFUSED')) };
    const error = await createRestoreHandler(store)('r1').catch((caught: unknown) => caught);
    expect(CtxkitError.isInstance(error, 'STORE_ERROR')).toBe(true);
    expect((error as Error).message).toBe('[ctxkit:tier-microcompact] reading "r1" failed: ECONNREFUSED');
  });
});

describe('parseHandle', () => {
  it('finds the handle or nothing', () => {
    expect(parseHandle('R12')).toBe('r12');
    expect(parseHandle({ handle: 'r5', extra: true })).toBe('r5');
    expect(parseHandle('restore r5 please')).toBeUndefined();
    expect(parseHandle(['r5'])).toBeUndefined();
    expect(parseHandle(null)).toBeUndefined();
  });
});

describe('createRestoreHandler with a conversationId', () => {
  it('restores from that conversation only: the same handle in another conversation is unknown here', async () => {
    const store = memoryStore();
    await conversationStore(store, 'ticket-1').setItem('r1', record('r1', 'output of ticket 1'));
    await conversationStore(store, 'ticket-2').setItem('r1', record('r1', 'output of ticket 2'));
    await store.setItem('r2', record('r2', 'unscoped'));
    expect(await createRestoreHandler(store, { conversationId: 'ticket-1' })({ handle: 'r1' })).toBe('output of ticket 1');
    expect(await createRestoreHandler(store, { conversationId: 'ticket-2' })({ handle: 'r1' })).toBe('output of ticket 2');
    expect(await createRestoreHandler(store, { conversationId: 'ticket-1' })({ handle: 'r2' })).toMatch(/^No archived tool result "r2"\./);
    expect(await createRestoreHandler(store)({ handle: 'r2' })).toBe('unscoped');
  });

  it('rejects an empty conversationId when created', () => {
    expect(() => createRestoreHandler(memoryStore(), { conversationId: '' })).toThrow('conversationId must be a non-empty string, got ""');
  });
});

describe('createRestoreHandler: no store', () => {
  it('throws INVALID_ARGUMENT at creation, not a STORE_ERROR at the first call', () => {
    for (const store of [null, undefined, {}]) {
      expect(() => createRestoreHandler(store as unknown as StorePlugin)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
    expect(() => createRestoreHandler(null as unknown as StorePlugin)).toThrow('[ctxkit:tier-microcompact] createRestoreHandler needs the store the tier archives to (with getItem), got null');
  });
});
