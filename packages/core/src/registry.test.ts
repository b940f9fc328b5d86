import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store.ts';
import { type AnyPlugin, type PluginKind, pluginKinds, type SupportedSpecificationVersions, supportedSpecificationVersions, type TierPlugin } from './plugin.ts';
import { assertValidPlugin, createRegistry } from './registry.ts';

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
    expect(() => createRegistry([odd])).toThrow(expect.objectContaining({ name: 'CtxkitError', code: 'INVALID_PLUGIN' }));
    expect(() => createRegistry([42 as unknown as TierPlugin])).toThrow(/plugin at position 0 is number/);
  });
});

/** The smallest object that passes as a plugin of a kind (the registry checks the base, not the methods). */
const pluginOf = (kind: PluginKind, specificationVersion: string): AnyPlugin => ({ specificationVersion, kind, id: `${kind}-${specificationVersion}` }) as unknown as AnyPlugin;

describe('per-kind contract versions', () => {
  it('lists the versions of every kind and registers a v1 plugin of each', () => {
    expect(Object.keys(supportedSpecificationVersions).sort()).toEqual([...pluginKinds].sort());
    const registry = createRegistry(pluginKinds.map((kind) => pluginOf(kind, 'v1')));
    expect(registry.plugins.map((plugin) => plugin.kind)).toEqual(pluginKinds);
  });

  it("judges a version against the plugin's own kind and names that kind's versions", () => {
    expect(() => createRegistry([memoryStore(), pluginOf('summarizer', 'v2')])).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_SPECIFICATION',
        message: expect.stringMatching(/position 1 \(summarizer "summarizer-v2"\) speaks specification "v2"; this ctxkit supports "v1" for summarizer plugins/),
        details: { kind: 'summarizer', specificationVersion: 'v2', supported: ['v1'] },
      }),
    );
    expect(() => createRegistry([pluginOf('store', undefined as unknown as string)])).toThrow(/speaks specification undefined; this ctxkit supports "v1" for store plugins/);
  });

  it('checks the kind before the version, so an unknown kind is INVALID_PLUGIN whatever it speaks', () => {
    expect(() => assertValidPlugin(pluginOf('widget' as PluginKind, 'v9'), 0)).toThrow(expect.objectContaining({ code: 'INVALID_PLUGIN' }));
  });

  it('a v2 of one contract leaves every v1 plugin of the other kinds, and of its own, valid', () => {
    // What adding tier v2 does to the table: only the tier entry widens.
    const withTierV2 = { ...supportedSpecificationVersions, tier: ['v1', 'v2'] } as unknown as SupportedSpecificationVersions;
    expect(assertValidPlugin(pluginOf('tier', 'v2'), 0, withTierV2).specificationVersion).toBe('v2');
    for (const kind of pluginKinds) expect(assertValidPlugin(pluginOf(kind, 'v1'), 0, withTierV2).kind).toBe(kind);
    expect(() => assertValidPlugin(pluginOf('summarizer', 'v2'), 0, withTierV2)).toThrow(/supports "v1" for summarizer plugins/);
    expect(() => assertValidPlugin(pluginOf('tier', 'v3'), 0, withTierV2)).toThrow(/supports "v1", "v2" for tier plugins/);
    // This release: the tier contract is at v1 only.
    expect(() => assertValidPlugin(pluginOf('tier', 'v2'), 0)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_SPECIFICATION' }));
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
