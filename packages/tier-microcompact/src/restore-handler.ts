import { conversationStore, CtxkitError, type StorePlugin } from '@ctxkit/core';
import { handlePattern, readArchivedToolResult, restoredText } from './archive.ts';

/** What a `restore_tool_result` call passes: its parsed arguments, their JSON text, or the bare handle. */
export type RestoreInput = { handle: string } | string;

/** Options for {@link createRestoreHandler}. */
export interface RestoreHandlerOptions {
  /**
   * The conversation whose archive to restore from: the `conversationId` its context manager was
   * created with. @default the unscoped archive (a manager without a conversationId)
   */
  conversationId?: string;
}

/** Answers `restore_tool_result` calls: the archived original's text, or an error text the model can act on. */
export type RestoreHandler = (input: RestoreInput) => Promise<string>;

const stubExample = '[tool result 7 archived: read_file src/app.ts, 12,480 tokens; restore with restore_tool_result("r7")]';

function unquote(text: string): string {
  const trimmed = text.trim();
  const quoted = /^(["'`])(.*)\1$/s.exec(trimmed);
  return (quoted ? quoted[2]! : trimmed).trim();
}

/**
 * The handle in a `restore_tool_result` input (`{ handle }`, its JSON text, or the bare handle, quoted or
 * not, any case), or undefined when there is none that could be meant.
 */
// Models and hosts pass the handle in several forms; accept the ones that cannot be misread.
export function parseHandle(input: unknown): string | undefined {
  if (typeof input === 'string') {
    const text = input.trim();
    if (text.startsWith('{')) {
      try {
        return parseHandle(JSON.parse(text));
      } catch {
        return undefined;
      }
    }
    const handle = unquote(text).toLowerCase();
    return handlePattern.test(handle) ? handle : undefined;
  }
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const value = (input as { handle?: unknown }).handle;
    return typeof value === 'string' ? parseHandle(unquote(value)) : undefined;
  }
  return undefined;
}

function shown(input: unknown): string {
  let text: string;
  try {
    text = typeof input === 'string' ? input : (JSON.stringify(input) ?? String(input));
  } catch {
    text = String(input);
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * The handler for `restore_tool_result` calls: give it the call's arguments (parsed, or the JSON text as
 * the model sent it, or the bare handle) and send what it returns as the tool result.
 *
 * It returns the archived original byte for byte when it was a string; content parts come back as their
 * texts joined with a newline, each image as one line saying it was not restored (a tool result here is
 * text; use {@link readArchivedToolResult} to get the image parts for a provider that takes them). An unknown
 * or malformed handle gets an error text the model can read and act on, not an exception.
 * With a `conversationId` it reads only that conversation's archive (any worker of a fleet can answer,
 * given the shared store); a handle archived by another conversation is unknown here.
 * @throws CtxkitError STORE_ERROR when the store itself fails (an outage the operator should see);
 * INVALID_ARGUMENT for an empty conversationId or a store without `getItem`, at creation
 * @example
 * ```ts
 * const restore = createRestoreHandler(store, { conversationId: 'ticket-8812' });
 * await restore({ handle: 'r7' });      // the original output of that tool call
 * await restore('{"handle":"r7"}');     // the same, from the unparsed arguments
 * await restore({ handle: 'r99' });     // 'No archived tool result "r99". Handles look like "r7" ...'
 * ```
 */
export function createRestoreHandler(store: StorePlugin, options: RestoreHandlerOptions = {}): RestoreHandler {
  // Checked here: a missing store would otherwise surface at the first call as a STORE_ERROR, an outage that is not one.
  if (typeof store !== 'object' || store === null || typeof (store as Partial<StorePlugin>).getItem !== 'function') {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'tier-microcompact',
      message: `createRestoreHandler needs the store the tier archives to (with getItem), got ${store === null ? 'null' : typeof store}`,
    });
  }
  const archive = options.conversationId === undefined ? store : conversationStore(store, options.conversationId);
  return async (input) => {
    const handle = parseHandle(input);
    if (handle === undefined) {
      return `restore_tool_result needs the handle named in an archived tool result's stub, such as "r7" in ${stubExample}; got ${shown(input)}. Call it again with {"handle": "r7"} and the handle from the stub.`;
    }
    const record = await readArchivedToolResult(archive, handle);
    if (record === undefined) {
      return `No archived tool result "${handle}". Handles look like "r7" and appear in stubs such as ${stubExample}; use a handle from a stub in this conversation, or run the original tool again.`;
    }
    return restoredText(record.content);
  };
}
