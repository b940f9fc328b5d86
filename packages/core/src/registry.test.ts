import { describe, expect, it } from 'vitest';
import { CtxkitError } from './ctxkit-error.ts';
import { memoryStore } from './memory-store.ts';
import type { TierPlugin } from './plugin.ts';
import { createRegistry } from './registry.ts';

const tier = <Id extends string>(id: Id): TierPlugin<Id> => ({
  specificationVersion: 'v1',
  kind: 'tier',
  id,
  category: 'structural',
  apply: async () => ({ status: 'skipped', reason: 'test' }),
});

describe('createRegistry', () => {
  it('finds plugins by kind and id and lists a kind in registration order', () => {
    const registry = createRegistry([tier('images'), memoryStore(), tier('microcompact')]);
    expect(registry.tier('microcompact').id).toBe('microcompact');
    expect(registry.store('memory').kind).toBe('store');
    expect(registry.all('tier').map((plugin) => plugin.id)).toEqual(['images', 'microcompact']);
    expect(registry.find('tier', 'webllm')).toBeUndefined();
  });

  it('skips falsy entries', () => {
    const onDevice = false as boolean;
    const registry = createRegistry([tier('images'), onDevice && tier('webllm'), null, undefined]);
    expect(registry.plugins).toHaveLength(1);
    expect(() => registry.tier('webllm')).toThrow(/no tier with id "webllm" is registered; registered: images/);
  });

  it('rejects duplicates, unknown kinds and other specification versions with typed errors', () => {
    expect(() => createRegistry([tier('images'), tier('images')])).toThrow(expect.objectContaining({ code: 'DUPLICATE_PLUGIN' }));
    const future = { ...tier('x'), specificationVersion: 'v2' } as unknown as TierPlugin<'x'>;
    expect(() => createRegistry([future])).toThrow(/speaks specification "v2"; this ctxkit supports "v1"/);
    const odd = { ...tier('x'), kind: 'widget' } as unknown as TierPlugin<'x'>;
    try {
      createRegistry([odd]);
      expect.unreachable();
    } catch (error) {
      expect(CtxkitError.isInstance(error, 'INVALID_PLUGIN')).toBe(true);
    }
    expect(() => createRegistry([42 as unknown as TierPlugin])).toThrow(/plugin at position 0 is number/);
  });
});

describe('memoryStore', () => {
  it('returns copies, so a caller cannot change what is stored', async () => {
    const store = memoryStore();
    const value = { lines: ['a'] };
    await store.setItem('k', value);
    value.lines.push('b');
    const read = await store.getItem<{ lines: string[] }>('k');
    expect(read).toEqual({ lines: ['a'] });
    await store.removeItem('k');
    expect(await store.getItem('k')).toBeNull();
  });
});
