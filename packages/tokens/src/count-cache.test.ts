import { describe, expect, it } from 'vitest';
import { CountCache } from './count-cache.ts';

describe('CountCache', () => {
  it('never holds more than twice its capacity', () => {
    const cache = new CountCache(100);
    for (let index = 0; index < 10_000; index++) cache.set(`piece ${index}`, index);
    expect(cache.size).toBeLessThanOrEqual(200);
    expect(cache.get('piece 9999')).toBe(9999);
    expect(cache.get('piece 0')).toBeUndefined();
  });

  it('keeps an entry that is still in use across generations', () => {
    const cache = new CountCache(10);
    cache.set('hot', 1);
    for (let index = 0; index < 100; index++) {
      cache.set(`cold ${index}`, index);
      expect(cache.get('hot')).toBe(1);
    }
    cache.clear();
    expect(cache.get('hot')).toBeUndefined();
  });

  it('keeps an offered count only once the same text was offered before, so text that never repeats never enters it', () => {
    const cache = new CountCache(100_000);
    for (let index = 0; index < 10_000; index++) cache.offer(`blob piece ${index}`, index);
    expect(cache.size).toBe(0);
    cache.offer('word', 1);
    expect(cache.get('word')).toBeUndefined();
    cache.offer('word', 1);
    expect(cache.get('word')).toBe(1);
    cache.clear();
    cache.offer('word', 1);
    expect(cache.get('word')).toBeUndefined();
  });
});
