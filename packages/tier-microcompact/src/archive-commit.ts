import type { Message, StorePlugin, TierContext } from '@ctxkit/core';
import { nextHandleKey, removeKeys, writeKeys } from './archive.ts';
import type { Plan } from './archive-plan.ts';
import { groupDigits } from './stub-text.ts';

/** The oldest planned stubs that together free what the transcript is over its target, and at least `minimum`. */
export function oldestEnough(plans: readonly Plan[], messages: readonly Message[], context: TierContext, minimum: number): Plan[] {
  const needed = Math.max(minimum, context.currentTokens - context.targetTokens);
  const chosen: Plan[] = [];
  let freed = 0;
  for (const planned of plans) {
    if (freed >= needed) break;
    chosen.push(planned);
    freed += context.count([messages[planned.index]!]) - context.count([planned.stub]);
  }
  return chosen;
}

/**
 * Writes the plan to the store: records, then fingerprints, then the counter, in one `setItems` call on a
 * store that has it (key by key in that order on one that does not). A stub never names a handle whose
 * original is not stored, because the stubs reach the transcript only once this resolves. A batch the store
 * applies part of (a crash, a failure mid-way; unstorage writes a batch's keys in parallel) may leave a
 * fingerprint without its record or a counter ahead: planning reads a fingerprint as archived only when the
 * record it names holds that call and content, and probing passes over used handles (decision 0098).
 */
export async function commitArchive(store: StorePlugin, plans: readonly Plan[], nextNumber: number): Promise<void> {
  const records = plans.flatMap((planned) => (planned.record ? [{ key: planned.handle, value: planned.record }] : []));
  const fingerprints = plans.flatMap((planned) => (planned.seen ? [{ key: planned.seen, value: planned.handle }] : []));
  await writeKeys(store, [...records, ...fingerprints, ...(records.length > 0 ? [{ key: nextHandleKey, value: nextNumber }] : [])]);
}

/**
 * Removes the reservations of handles planned but not archived (a plan not chosen, a compaction that
 * skipped or failed), so they leave no empty entries; best effort: a reservation left behind only skips
 * a number, and the restore handler reads it as no archive.
 */
export async function releaseReservations(store: StorePlugin, reserved: readonly string[], committed: readonly Plan[]): Promise<void> {
  const written = new Set(committed.flatMap((planned) => (planned.record ? [planned.handle] : [])));
  try {
    // One removeItems call on a store that has it; key by key, each tried, on one that does not.
    await removeKeys(
      store,
      reserved.filter((handle) => !written.has(handle)),
    );
  } catch {
    // left behind: the number is skipped, nothing is lost
  }
}

function handleRange(handles: readonly string[]): string {
  if (handles.length === 0) return '';
  return handles.length === 1 ? handles[0]! : `${handles[0]}–${handles.at(-1)}`;
}

/** The applied outcome's detail: how many results became stubs, which handles are new, what it freed. */
export function archivedDetail(plans: readonly Plan[], freed: number): string {
  const fresh = plans.filter((entry) => entry.record).map((entry) => entry.handle);
  const reused = plans.length - fresh.length;
  const handles = [fresh.length > 0 ? `${fresh.length} new: ${handleRange(fresh)}` : '', reused > 0 ? `${reused} archived before` : ''].filter(Boolean).join('; ');
  return `archived ${plans.length} tool result${plans.length === 1 ? '' : 's'} as stubs (${handles}), freed ${groupDigits(freed)} tokens`;
}
