import { type ContentPart, CtxkitError, type Message, type StorePlugin, type TierContext, type TierOutcome, type TierPlugin, type ToolCall, type ToolMessage, textOf } from '@ctxkit/core';
import { type ArchivedToolResult, nextHandleKey, readArchivedToolResult, readKey, restoredText, seenKey, source, writeKey } from './archive.ts';
import { fingerprint } from './fingerprint.ts';
import { parseHandle } from './restore-handler.ts';
import { restoreToolResultTool } from './restore-tool.ts';
import { digestOutput, type StubDetailOptions, type StubDigest } from './stub-digest.ts';
import { defaultStubText, describeArguments, groupDigits, looksLikeStub, type StubDescription } from './stub-text.ts';

/** Options for {@link microcompactTier}. */
export interface MicrocompactOptions {
  /** The most recent tool results that stay verbatim, counted over the whole transcript. @default 3 */
  keepRecent?: number;
  /**
   * Do nothing unless archiving frees at least this many tokens: each compaction rewrites the prompt
   * and loses the provider's prompt cache behind the first change, which a few tokens do not repay.
   * @default 2000
   */
  minSavingsTokens?: number;
  /** Tool results whose text is shorter than this stay verbatim: a stub would save little and cost a restore call. @default 100 */
  minResultTokens?: number;
  /** Tools whose results are never archived (results the model must always see, such as a plan or todo list). @default [] */
  excludeTools?: readonly string[];
  /** Writes the stub's text; it must contain the handle, or the model could not restore the original. @default defaultStubText */
  stubText?: (stub: StubDescription) => string;
  /**
   * What a stub keeps of its output so the model still recognises it without a restore: head and tail
   * lines and the names in between (paths, identifiers, line numbers), within a budget that grows with
   * the output; `false` for a bare handle. @default { lines: 2, lineLength: 100, maxCharacters: 480, share: 0.15 }
   */
  stubDetail?: StubDetailOptions | false;
  /**
   * How many old results to archive: `'target'` archives the oldest first, just enough to bring the
   * transcript to the target (and at least `minSavingsTokens`), leaving newer results verbatim; `'all'`
   * archives every old result. @default 'target'
   */
  archive?: 'target' | 'all';
}

interface Plan {
  index: number;
  handle: string;
  stub: ToolMessage;
  /** The record to write; absent when the original is archived already under this handle. */
  record?: ArchivedToolResult;
  seen?: string;
}

/** Content as one string, independent of the key order of its parts, for comparing and fingerprinting. */
function contentKey(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return `s\u0000${content}`;
  return content
    .map((part) => (part.type === 'text' ? `t\u0000${part.text}` : `i\u0000${part.mediaType}\u0000${part.data ?? ''}\u0000${part.url ?? ''}`))
    .join('\u0001');
}

function imageCount(content: string | readonly ContentPart[]): number {
  return typeof content === 'string' ? 0 : content.filter((part) => part.type === 'image').length;
}

function checkCount(name: string, value: number, at: number): void {
  if (!Number.isInteger(value) || value < at) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `microcompactTier option ${name} must be an integer ≥ ${at}, got ${String(value)}` });
  }
}

/** The oldest planned stubs that together free what the transcript is over its target, and at least `minimum`. */
function oldestEnough(plans: readonly Plan[], messages: readonly Message[], context: TierContext, minimum: number): Plan[] {
  const needed = Math.max(minimum, context.count(messages) - context.targetTokens);
  const chosen: Plan[] = [];
  let freed = 0;
  for (const planned of plans) {
    if (freed >= needed) break;
    chosen.push(planned);
    freed += context.count([messages[planned.index]!]) - context.count([planned.stub]);
  }
  return chosen;
}

function handleRange(handles: readonly string[]): string {
  if (handles.length === 0) return '';
  return handles.length === 1 ? handles[0]! : `${handles[0]}–${handles.at(-1)}`;
}

/**
 * Microcompaction: tool results older than the most recent `keepRecent`, and outside the protected recent
 * turns, become one-line stubs such as
 * `[tool result 7 archived: read_file src/app.ts, 12,480 tokens; restore with restore_tool_result("r7")]`.
 * The originals go to `context.store` under their handle (`r7`), with the call's id, tool name and
 * arguments; the model gets any of them back through the {@link restoreToolResultTool} tool, answered
 * by {@link createRestoreHandler}.
 *
 * When to use: coding and browsing agents whose old tool output (files read, command output, search
 * results) fills the window. It keeps every message in place, so the model still sees what it did.
 *
 * Gotchas: it skips (reason given) unless it frees `minSavingsTokens`, so a nearly-fitting transcript is
 * left for a later tier. Handles are numbered per store: give each run its own store or key prefix. A
 * stub is never archived again, and the same result archived twice (a host that prepares its full
 * history each step) keeps its first handle, so stubs, and the prompt cache behind them, stay stable.
 * @default keepRecent 3, minSavingsTokens 2000, minResultTokens 100
 * @throws CtxkitError INVALID_ARGUMENT for a bad option (at creation, not during a run)
 * @example
 * ```ts
 * const registry = createRegistry([summaryTier(), microcompactTier({ keepRecent: 3 }), imageStripTier(), trimTier()]);
 * // and in the agent: tools.push(toOpenAITool(restoreToolResultTool)); restore = createRestoreHandler(store)
 * ```
 */
export function microcompactTier(options: MicrocompactOptions = {}): TierPlugin<'microcompact'> {
  const { keepRecent = 3, minSavingsTokens = 2_000, minResultTokens = 100, excludeTools = [], stubText = defaultStubText, stubDetail = {}, archive = 'target' } = options;
  if (archive !== 'target' && archive !== 'all') throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `microcompactTier option archive must be 'target' or 'all', got ${JSON.stringify(archive)}` });
  checkCount('keepRecent', keepRecent, 0);
  checkCount('minSavingsTokens', minSavingsTokens, 0);
  checkCount('minResultTokens', minResultTokens, 0);
  if (!Array.isArray(excludeTools) || excludeTools.some((name) => typeof name !== 'string')) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: 'microcompactTier option excludeTools must be an array of tool names' });
  }
  if (typeof stubText !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `microcompactTier option stubText must be a function, got ${typeof stubText}` });
  }
  const excluded = new Set(excludeTools);
  // A result's digest, once: a host prepares the same message objects again at every compaction.
  const digests = new WeakMap<object, StubDigest>();
  const digestOf = (message: ToolMessage, text: string, detail: StubDetailOptions) => {
    let digest = digests.get(message);
    if (!digest) {
      digest = digestOutput(text, detail);
      digests.set(message, digest);
    }
    return digest;
  };

  async function plan(messages: readonly Message[], context: TierContext, end: number): Promise<{ plans: Plan[]; nextNumber: number } | string> {
    const toolIndices = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
    const recent = new Set(keepRecent === 0 ? [] : toolIndices.slice(-keepRecent));
    const calls = new Map<string, ToolCall>();
    for (const message of messages) {
      if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    }
    const old = toolIndices.filter((index) => index < end && !recent.has(index));
    if (old.length === 0) {
      return `no tool results to archive: none before the protected recent messages (from index ${end}) other than the last ${keepRecent}`;
    }

    const store = context.store;
    const stored = await readKey<unknown>(store, nextHandleKey);
    let nextNumber = typeof stored === 'number' && Number.isInteger(stored) && stored > 0 ? stored : 1;
    // Probing skips numbers in use, so a lost or stale counter can never make two results share a handle.
    const freeHandle = async (): Promise<string> => {
      for (;;) {
        const handle = `r${nextNumber}`;
        if ((await readKey<unknown>(store, handle)) === null) return handle;
        nextNumber += 1;
      }
    };

    const plans: Plan[] = [];
    for (const index of old) {
      const original = messages[index] as ToolMessage;
      if (original.meta?.ctxkit?.kind === 'stub' || (typeof original.content === 'string' && looksLikeStub(original.content))) continue;
      const call = calls.get(original.toolCallId);
      const toolName = call?.name ?? original.toolName ?? 'tool';
      if (excluded.has(toolName)) continue;
      const text = textOf(original.content);
      const tokens = context.countText(text);
      if (tokens < minResultTokens) continue;

      let handle: string | undefined;
      let described: { toolName: string; argumentsText: string | undefined; tokens: number; images: number } = {
        toolName,
        argumentsText: call?.arguments,
        tokens,
        images: imageCount(original.content),
      };
      let record: ArchivedToolResult | undefined;
      let seen: string | undefined;

      if (toolName === restoreToolResultTool.name && typeof original.content === 'string') {
        // A restored original that grew old again points back at its first archive instead of a copy.
        const restoredHandle = parseHandle(call?.arguments ?? '');
        const earlier = restoredHandle === undefined ? undefined : await readArchivedToolResult(store, restoredHandle);
        if (earlier && restoredText(earlier.content) === original.content) {
          handle = earlier.handle;
          described = { toolName: earlier.toolName ?? 'tool', argumentsText: earlier.arguments, tokens: earlier.tokens, images: imageCount(earlier.content) };
        }
      }
      if (handle === undefined) {
        const key = contentKey(original.content);
        seen = seenKey(fingerprint(`${original.toolCallId}\u0000${key}`));
        const earlierHandle = await readKey<unknown>(store, seen);
        const earlier = typeof earlierHandle === 'string' ? await readArchivedToolResult(store, earlierHandle) : undefined;
        if (earlier && earlier.toolCallId === original.toolCallId && contentKey(earlier.content) === key) {
          handle = earlier.handle;
          seen = undefined;
        }
      }
      const isNew = handle === undefined;
      const stubHandle = handle ?? (await freeHandle());
      const description: StubDescription = {
        handle: stubHandle,
        number: Number(stubHandle.slice(1)),
        toolName: described.toolName,
        target: describeArguments(described.argumentsText),
        tokens: described.tokens,
        images: described.images,
        ...(stubDetail === false ? {} : { digest: digestOf(original, text, stubDetail) }),
      };
      let content: unknown;
      try {
        content = stubText(description);
      } catch (cause) {
        throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `microcompactTier option stubText threw: ${cause instanceof Error ? cause.message : String(cause)}`, cause });
      }
      if (typeof content !== 'string' || !content.includes(stubHandle)) {
        throw new CtxkitError({
          code: 'INVALID_ARGUMENT',
          source,
          message: `microcompactTier option stubText must return text that contains the handle ("${stubHandle}"), got ${JSON.stringify(content)}`,
        });
      }
      const stub: ToolMessage = {
        role: 'tool',
        toolCallId: original.toolCallId,
        ...(original.toolName === undefined ? {} : { toolName: original.toolName }),
        ...(original.id === undefined ? {} : { id: original.id }),
        content,
        meta: { ...original.meta, ctxkit: { kind: 'stub', by: 'microcompact', replaces: [original.id ?? `#${index}`], handle: stubHandle } },
      };
      if (context.count([stub]) >= context.count([original])) continue;
      if (isNew) {
        nextNumber += 1;
        const knownName = call?.name ?? original.toolName;
        record = {
          type: 'ctxkit.archived-tool-result',
          version: 1,
          handle: stubHandle,
          toolCallId: original.toolCallId,
          ...(knownName === undefined ? {} : { toolName: knownName }),
          ...(call ? { arguments: call.arguments } : {}),
          content: original.content,
          tokens,
          ...(original.id === undefined ? {} : { messageId: original.id }),
          archivedAt: new Date().toISOString(),
        };
      }
      plans.push({ index, handle: stubHandle, stub, ...(record ? { record } : {}), ...(record && seen ? { seen } : {}) });
    }
    if (plans.length === 0) {
      return `no tool results to archive: the ${old.length} old ones are stubs already, excluded, or shorter than minResultTokens (${minResultTokens})`;
    }
    return { plans, nextNumber };
  }

  async function commit(store: StorePlugin, plans: readonly Plan[], nextNumber: number): Promise<void> {
    // Records first: a stub must never name a handle whose original is not stored yet.
    for (const planned of plans) if (planned.record) await writeKey(store, planned.handle, planned.record);
    for (const planned of plans) if (planned.seen) await writeKey(store, planned.seen, planned.handle);
    if (plans.some((planned) => planned.record)) await writeKey(store, nextHandleKey, nextNumber);
  }

  return {
    specificationVersion: 'v1',
    kind: 'tier',
    id: 'microcompact',
    category: 'structural',
    async apply(messages, context): Promise<TierOutcome> {
      const { protectedStart, signal } = context;
      if (typeof protectedStart !== 'number' || Number.isNaN(protectedStart)) {
        return { status: 'failed', reason: `context.protectedStart must be a message index, got ${String(protectedStart)}` };
      }
      if (signal.aborted) return { status: 'failed', reason: 'aborted before it started', error: signal.reason };
      const end = Math.min(Math.max(0, Math.floor(protectedStart)), messages.length);
      let planned: { plans: Plan[]; nextNumber: number } | string;
      try {
        planned = await plan(messages, context, end);
      } catch (error) {
        // A store that is down is not the tier failing: it skips, says why, and the next tier compacts instead.
        if (CtxkitError.isInstance(error, 'STORE_ERROR')) return { status: 'skipped', reason: `could not read the archive store, transcript unchanged: ${error.message}` };
        return { status: 'failed', reason: error instanceof Error ? error.message : String(error), error };
      }
      if (typeof planned === 'string') return { status: 'skipped', reason: planned };
      const { nextNumber } = planned;
      const plans = archive === 'all' ? planned.plans : oldestEnough(planned.plans, messages, context, minSavingsTokens);

      const output = messages.slice();
      for (const { index, stub } of plans) output[index] = stub;
      const before = context.count(messages);
      const after = context.count(output);
      const freed = before - after;
      if (freed <= 0) return { status: 'skipped', reason: `stubs would not shrink the transcript (${groupDigits(before)} → ${groupDigits(after)} tokens)` };
      if (freed < minSavingsTokens) {
        return {
          status: 'skipped',
          reason: `archiving ${plans.length} tool result${plans.length === 1 ? '' : 's'} would free only ${groupDigits(freed)} tokens, below minSavingsTokens (${groupDigits(minSavingsTokens)}); left unchanged to keep the prompt cache`,
        };
      }
      if (signal.aborted) return { status: 'failed', reason: 'aborted before archiving; transcript unchanged', error: signal.reason };
      try {
        await commit(context.store, plans, nextNumber);
      } catch (error) {
        return { status: 'skipped', reason: `could not archive to the store, transcript unchanged: ${(error as Error)?.message ?? String(error)}` };
      }
      const fresh = plans.filter((entry) => entry.record).map((entry) => entry.handle);
      const reused = plans.length - fresh.length;
      const handles = [fresh.length > 0 ? `${fresh.length} new: ${handleRange(fresh)}` : '', reused > 0 ? `${reused} archived before` : ''].filter(Boolean).join('; ');
      return {
        status: 'applied',
        messages: output,
        detail: `archived ${plans.length} tool result${plans.length === 1 ? '' : 's'} as stubs (${handles}), freed ${groupDigits(freed)} tokens`,
      };
    },
  };
}
