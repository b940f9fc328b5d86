import { CtxkitError, messageKey, type ToolCall, type ToolMessage } from '@ctxkit/core';
import { type ArchivedToolResult, source } from './archive.ts';
import type { StubDescription } from './stub-text.ts';

/**
 * The stub's text from the host's `stubText`, checked to name the handle.
 * @throws CtxkitError INVALID_ARGUMENT when `stubText` throws or returns text without the handle
 */
export function writeStubText(stubText: (stub: StubDescription) => string, description: StubDescription): string {
  let content: unknown;
  try {
    content = stubText(description);
  } catch (cause) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `microcompactTier option stubText threw: ${cause instanceof Error ? cause.message : String(cause)}`, cause });
  }
  if (typeof content !== 'string' || !content.includes(description.handle)) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source,
      message: `microcompactTier option stubText must return text that contains the handle ("${description.handle}"), got ${JSON.stringify(content)}`,
    });
  }
  return content;
}

/** The tool message that stands for an archived result: same call id, name and id, the stub's text, and its trace. */
export function stubMessage(original: ToolMessage, index: number, content: string, handle: string): ToolMessage {
  return {
    role: 'tool',
    toolCallId: original.toolCallId,
    ...(original.toolName === undefined ? {} : { toolName: original.toolName }),
    ...(original.id === undefined ? {} : { id: original.id }),
    content,
    meta: { ...original.meta, ctxkit: { kind: 'stub', by: 'microcompact', replaces: [messageKey(original, index)], handle } },
  };
}

/** The record the store keeps under a new handle: the original, its call, its tokens, when it was archived. */
export function archiveRecord(original: ToolMessage, call: ToolCall | undefined, handle: string, tokens: number): ArchivedToolResult {
  const knownName = call?.name ?? original.toolName;
  return {
    type: 'ctxkit.archived-tool-result',
    version: 1,
    handle,
    toolCallId: original.toolCallId,
    ...(knownName === undefined ? {} : { toolName: knownName }),
    ...(call ? { arguments: call.arguments } : {}),
    content: original.content,
    tokens,
    ...(original.id === undefined ? {} : { messageId: original.id }),
    archivedAt: new Date().toISOString(),
  };
}
