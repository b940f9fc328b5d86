import type { Message } from '@ctxkit/core';

/** True when two transcripts hold the same message objects in the same order. */
function sameMessages(a: readonly Message[], b: readonly Message[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = a.length - 1; index >= 0; index--) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * The compactions running now, so a second `prepare` of the same transcript (the same message objects,
 * for the same model and tools) while the first is compacting shares its result instead of calling the
 * summarizer again. A different transcript compacts on its own.
 */
export function createInFlight<T>() {
  const running: { messages: readonly Message[]; key: string; tools: unknown; promise: Promise<T> }[] = [];
  return {
    /** The running compaction of this transcript, or a new one from `start`. */
    share(messages: readonly Message[], key: string, tools: unknown, start: () => Promise<T>): { promise: Promise<T>; shared: boolean } {
      const same = running.find((entry) => entry.key === key && entry.tools === tools && sameMessages(entry.messages, messages));
      if (same) return { promise: same.promise, shared: true };
      const entry = { messages, key, tools, promise: start() };
      running.push(entry);
      const remove = () => {
        const index = running.indexOf(entry);
        if (index >= 0) running.splice(index, 1);
      };
      entry.promise.then(remove, remove);
      return { promise: entry.promise, shared: false };
    },
  };
}
