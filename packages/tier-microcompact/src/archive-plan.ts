import { type ContentPart, CtxkitError, type Message, type StorePlugin, type TierContext, type ToolCall, type ToolMessage, textOf } from '@ctxkit/core';
import { type ArchivedToolResult, claimKey, isArchivedToolResult, nextHandleKey, readKey, readKeys, restoredText, seenKey, source } from './archive.ts';
import type { DigestOf } from './digest-cache.ts';
import { fingerprint } from './fingerprint.ts';
import type { MicrocompactSettings } from './microcompact-settings.ts';
import { releaseReservations } from './archive-commit.ts';
import { parseHandle } from './restore-handler.ts';
import { restoreToolResultTool } from './restore-tool.ts';
import { archiveRecord, stubMessage, writeStubText } from './stub-message.ts';
import { describeArguments, looksLikeStub, type StubDescription } from './stub-text.ts';

/** One old result planned as a stub. */
export interface Plan {
  index: number;
  handle: string;
  stub: ToolMessage;
  /** The record to write; absent when the original is archived already under this handle. */
  record?: ArchivedToolResult;
  /** The fingerprint key to point at the handle, for a result archived for the first time. */
  seen?: string;
}

/** The stubs planned for a transcript, and the handle number to store as the next free one. */
export interface ArchivePlan {
  plans: Plan[];
  nextNumber: number;
  /** Handles reserved in the store while planning; those no committed record fills are released after. */
  reserved: readonly string[];
}

/** What a stub says about the result it stands for. */
type Described = Pick<StubDescription, 'toolName' | 'tokens' | 'images'> & { argumentsText: string | undefined };

/** Content as one string, independent of the key order of its parts, for comparing and fingerprinting. */
function contentKey(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return `s\u0000${content}`;
  return content.map((part) => (part.type === 'text' ? `t\u0000${part.text}` : `i\u0000${part.mediaType}\u0000${part.data ?? ''}\u0000${part.url ?? ''}`)).join('\u0001');
}

function imageCount(content: string | readonly ContentPart[]): number {
  return typeof content === 'string' ? 0 : content.filter((part) => part.type === 'image').length;
}

function toolCallsById(messages: readonly Message[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
  }
  return calls;
}

/** What a handle holds between planning and commit, when the store can claim keys atomically. */
const reservation = { type: 'ctxkit.handle-reservation', version: 1 };

/** Hands out free handles, with the handles reserved on the way (see {@link HandleAllocator.reserved}). */
export interface HandleAllocator {
  /** The next free handle; the same one until {@link claim} is called. */
  free(): Promise<string>;
  /** Marks the handle `free` gave last as used, so the next `free` gives another. */
  claim(): void;
  /** The number to store as the next free one. */
  readonly next: number;
  /** Handles claimed in the store for this plan: each holds a reservation until the commit writes its record. */
  readonly reserved: readonly string[];
}

/**
 * Hands out free handles from the stored counter (`stored`, as read with the fingerprints); probing skips
 * numbers in use, so a lost or stale counter never makes two results share a handle. A store with
 * `setItemIfAbsent` claims each handle atomically (a reservation written under it), so two managers
 * compacting on one store at once never pick the same one; without it, a read finds the first free number,
 * and two such managers can race.
 */
function handleAllocator(store: StorePlugin, stored: unknown): HandleAllocator {
  let nextNumber = typeof stored === 'number' && Number.isInteger(stored) && stored > 0 ? stored : 1;
  let offered: string | undefined;
  const reserved: string[] = [];
  const isFree = async (handle: string) => {
    if (!store.setItemIfAbsent) return (await readKey<unknown>(store, handle)) === null;
    // A refused claim on a key that then reads empty is a reservation released in between, or a store
    // whose setItemIfAbsent breaks its contract: retried, then reported, never probed past for ever.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claimKey(store, handle, reservation)) {
        reserved.push(handle);
        return true;
      }
      if ((await readKey<unknown>(store, handle)) !== null) return false;
    }
    throw new CtxkitError({
      code: 'STORE_ERROR',
      source,
      message: `store "${store.id}" refused setItemIfAbsent(${JSON.stringify(handle)}) three times while the key read empty: its setItemIfAbsent must answer true when it writes`,
    });
  };
  return {
    async free() {
      if (offered !== undefined) return offered;
      for (;;) {
        const handle = `r${nextNumber}`;
        if (await isFree(handle)) {
          offered = handle;
          return handle;
        }
        nextNumber += 1;
      }
    },
    claim() {
      offered = undefined;
      nextNumber += 1;
    },
    get next() {
      return nextNumber;
    },
    reserved,
  };
}

/** An old result that may become a stub: what its stub says, and the store keys that tell whether it is archived already. */
interface Candidate {
  index: number;
  original: ToolMessage;
  call: ToolCall | undefined;
  text: string;
  described: Described;
  /** The content as {@link contentKey} gives it. */
  key: string;
  /** The fingerprint key that points at its handle once archived. */
  seen: string;
  /** For an answer of `restore_tool_result`: the handle it restored, whose record it may be. */
  restoredHandle?: string;
}

/** What planning needs besides the results themselves. */
interface PlanRun {
  context: TierContext;
  settings: MicrocompactSettings;
  digestOf: DigestOf;
  calls: ReadonlyMap<string, ToolCall>;
}

/** The result at `index` as a candidate, or undefined when it stays: a stub already, an excluded tool, or shorter than `minResultTokens`. */
function candidateAt(messages: readonly Message[], index: number, run: PlanRun): Candidate | undefined {
  const { context, settings } = run;
  const original = messages[index] as ToolMessage;
  if (original.meta?.ctxkit?.kind === 'stub' || (typeof original.content === 'string' && looksLikeStub(original.content))) return undefined;
  const call = run.calls.get(original.toolCallId);
  const toolName = call?.name ?? original.toolName ?? 'tool';
  if (settings.excluded.has(toolName)) return undefined;
  const text = textOf(original.content);
  const tokens = context.countText(text);
  if (tokens < settings.minResultTokens) return undefined;
  const key = contentKey(original.content);
  const restoredHandle = toolName === restoreToolResultTool.name && typeof original.content === 'string' ? parseHandle(call?.arguments ?? '') : undefined;
  return {
    index,
    original,
    call,
    text,
    described: { toolName, argumentsText: call?.arguments, tokens, images: imageCount(original.content) },
    key,
    seen: seenKey(fingerprint(`${original.toolCallId}\u0000${key}`)),
    ...(restoredHandle === undefined ? {} : { restoredHandle }),
  };
}

/** Where a candidate is archived already, with what its stub says; otherwise the fingerprint key to record for it. */
type Earlier = { handle: string; described: Described } | { seen: string };

/** A restored original that grew old again points back at its first archive, when the record there holds its text. */
function restoredArchive(candidate: Candidate, record: unknown): Earlier | undefined {
  if (!isArchivedToolResult(record) || restoredText(record.content) !== candidate.original.content) return undefined;
  return { handle: record.handle, described: { toolName: record.toolName ?? 'tool', argumentsText: record.arguments, tokens: record.tokens, images: imageCount(record.content) } };
}

/**
 * Where each candidate is archived already, read in two batches (one `getItems` call each on a store that
 * has it): the handle counter, every restored handle and every fingerprint key; then the records those
 * fingerprints point at. A result seen before (same call id and content) keeps its handle.
 */
async function readEarlierArchives(store: StorePlugin, candidates: readonly Candidate[]): Promise<{ storedNext: unknown; earlier: Earlier[] }> {
  const restored = candidates.flatMap((candidate) => (candidate.restoredHandle === undefined ? [] : [candidate.restoredHandle]));
  const [storedNext, ...values] = await readKeys(store, [nextHandleKey, ...restored, ...candidates.map((candidate) => candidate.seen)]);
  const restoredRecords = new Map(restored.map((handle, position) => [handle, values[position]]));
  const seenHandles = values.slice(restored.length);
  const found = candidates.map((candidate) => (candidate.restoredHandle === undefined ? undefined : restoredArchive(candidate, restoredRecords.get(candidate.restoredHandle))));
  // Only the records of results not found as restored originals, each handle once.
  const pointedAt = candidates.map((_, position) => {
    const handle = seenHandles[position];
    return found[position] === undefined && typeof handle === 'string' ? handle : undefined;
  });
  const handles = [...new Set(pointedAt.filter((handle) => handle !== undefined))];
  const recordValues = await readKeys(store, handles);
  const records = new Map(handles.map((handle, position) => [handle, recordValues[position]]));
  const earlier = candidates.map((candidate, position): Earlier => {
    const restoredEarlier = found[position];
    if (restoredEarlier) return restoredEarlier;
    const handle = pointedAt[position];
    const record = handle === undefined ? undefined : records.get(handle);
    const same = isArchivedToolResult(record) && record.toolCallId === candidate.original.toolCallId && contentKey(record.content) === candidate.key;
    return same ? { handle: record.handle, described: candidate.described } : { seen: candidate.seen };
  });
  return { storedNext, earlier };
}

/** The stub for one candidate, or undefined when the stub would not be smaller. */
async function planResult(candidate: Candidate, earlier: Earlier, run: PlanRun, handles: HandleAllocator): Promise<Plan | undefined> {
  const { context, settings } = run;
  const { index, original, call, text } = candidate;
  const isNew = !('handle' in earlier);
  const handle = isNew ? await handles.free() : earlier.handle;
  const described = isNew ? candidate.described : earlier.described;
  const description: StubDescription = {
    handle,
    number: Number(handle.slice(1)),
    toolName: described.toolName,
    target: describeArguments(described.argumentsText),
    tokens: described.tokens,
    images: described.images,
    ...(settings.stubDetail === false ? {} : { digest: run.digestOf(original, text, settings.stubDetail) }),
  };
  const stub = stubMessage(original, index, writeStubText(settings.stubText, description), handle);
  if (context.count([stub]) >= context.count([original])) return undefined;
  if (!isNew) return { index, handle, stub };
  handles.claim();
  return { index, handle, stub, record: archiveRecord(original, call, handle, candidate.described.tokens), seen: earlier.seen };
}

/**
 * Plans a stub for every tool result before `end` other than the last `keepRecent`, reading the store
 * for handles already given; writes nothing. A string says why there is nothing to archive.
 * @throws CtxkitError STORE_ERROR when the store cannot be read; INVALID_ARGUMENT for a `stubText` that breaks its contract
 */
export async function planArchive(messages: readonly Message[], context: TierContext, end: number, settings: MicrocompactSettings, digestOf: DigestOf): Promise<ArchivePlan | string> {
  const { keepRecent } = settings;
  const toolIndices = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
  const recent = new Set(keepRecent === 0 ? [] : toolIndices.slice(-keepRecent));
  const calls = toolCallsById(messages);
  const old = toolIndices.filter((index) => index < end && !recent.has(index));
  if (old.length === 0) {
    return `no tool results to archive: none before the protected recent messages (from index ${end}) other than the last ${keepRecent}`;
  }
  const run: PlanRun = { context, settings, digestOf, calls };
  const candidates = old.flatMap((index) => candidateAt(messages, index, run) ?? []);
  const nothing = `no tool results to archive: the ${old.length} old ones are stubs already, excluded, or shorter than minResultTokens (${settings.minResultTokens})`;
  if (candidates.length === 0) return nothing;
  const { storedNext, earlier } = await readEarlierArchives(context.store, candidates);
  const handles = handleAllocator(context.store, storedNext);
  const plans: Plan[] = [];
  try {
    for (const [position, candidate] of candidates.entries()) {
      const planned = await planResult(candidate, earlier[position]!, run, handles);
      if (planned) plans.push(planned);
    }
  } catch (error) {
    await releaseReservations(context.store, handles.reserved, []);
    throw error;
  }
  if (plans.length === 0) {
    await releaseReservations(context.store, handles.reserved, []);
    return nothing;
  }
  return { plans, nextNumber: handles.next, reserved: handles.reserved };
}
