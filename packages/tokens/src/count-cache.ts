/** Slots of the record of recent offers (a power of two): 256 KB. */
const offerSlots = 1 << 16;

/** FNV-1a over UTF-16 code units. */
function textHash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash;
}

/**
 * A bounded map from text to a count with two generations: lookups that hit the old generation move
 * the entry to the new one, and when the new one fills up the old one is dropped whole. That keeps
 * what is in use at the cost of one extra map lookup on a miss, without an LRU's per-hit bookkeeping.
 */
export class CountCache {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  /** The hash of the last key offered in each slot (see {@link offer}). */
  private readonly offered = new Int32Array(offerSlots);

  /** @param capacity entries per generation; the cache holds at most twice this many. */
  constructor(private readonly capacity: number) {}

  get(key: string): number | undefined {
    const found = this.current.get(key);
    if (found !== undefined) return found;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: string, value: number): void {
    if (this.current.size >= this.capacity) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  /**
   * Stores a count only when the same key was offered recently (its hash is still in its slot of a
   * fixed 64K-slot record): text that never repeats, such as almost every piece of a base64 blob, then
   * never enters the cache. Entering it would cost nothing in counts but a steady turnover of entries
   * that outlive the young generation, which lets the heap grow to several times what is live.
   */
  offer(key: string, value: number): void {
    const hash = textHash32(key);
    const slot = hash & (offerSlots - 1);
    if (this.offered[slot] === hash) this.set(key, value);
    else this.offered[slot] = hash;
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  clear(): void {
    this.current = new Map();
    this.previous = new Map();
    this.offered.fill(0);
  }
}
