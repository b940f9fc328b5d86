import type { Message, StorePlugin, TierContext } from '@ctxkit/core';
import { nextHandleKey, writeKey } from './archive.ts';
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

/** Writes the plan to the store: records first (a stub must never name a handle whose original is not stored yet), then fingerprints, then the counter. */
export async function commitArchive(store: StorePlugin, plans: readonly Plan[], nextNumber: number): Promise<void> {
  for (const planned of plans) if (planned.record) await writeKey(store, planned.handle, planned.record);
  for (const planned of plans) if (planned.seen) await writeKey(store, planned.seen, planned.handle);
  if (plans.some((planned) => planned.record)) await writeKey(store, nextHandleKey, nextNumber);
}

/**
 * Removes the reservations of handles planned but not archived (a plan not chosen, a compaction that
 * skipped or failed), so they leave no empty entries; best effort: a reservation left behind only skips
 * a number, and the restore handler reads it as no archive.
 */
export async function releaseReservations(store: StorePlugin, reserved: readonly string[], committed: readonly Plan[]): Promise<void> {
  const written = new Set(committed.flatMap((planned) => (planned.record ? [planned.handle] : [])));
  for (const handle of reserved) {
    if (written.has(handle)) continue;
    try {
      await store.removeItem(handle);
    } catch {
      // left behind: the number is skipped, nothing is lost
    }
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
