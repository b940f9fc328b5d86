/**
 * A bounded map from text to a count with two generations: lookups that hit the old generation move
 * the entry to the new one, and when the new one fills up the old one is dropped whole. That keeps
 * what is in use at the cost of one extra map lookup on a miss, without an LRU's per-hit bookkeeping.
 */
export class CountCache {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();

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

  get size(): number {
    return this.current.size + this.previous.size;
  }

  clear(): void {
    this.current = new Map();
    this.previous = new Map();
  }
}
