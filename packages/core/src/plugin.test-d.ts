import { describe, expectTypeOf, it } from 'vitest';
import type {
  AnyPlugin,
  PluginBase,
  PluginKind,
  SpecificationVersionOf,
  SpecificationVersions,
  StorePlugin,
  SummarizerPlugin,
  SupportedSpecificationVersions,
  TierPlugin,
  TokenizerPlugin,
} from './plugin.ts';
import { supportedSpecificationVersions } from './plugin.ts';

describe('per-kind contract versions', () => {
  it("types each plugin's version by its own kind's entry", () => {
    expectTypeOf<TierPlugin['specificationVersion']>().toEqualTypeOf<SpecificationVersions['tier']>();
    expectTypeOf<SummarizerPlugin['specificationVersion']>().toEqualTypeOf<SpecificationVersions['summarizer']>();
    expectTypeOf<StorePlugin['specificationVersion']>().toEqualTypeOf<SpecificationVersions['store']>();
    expectTypeOf<Extract<AnyPlugin, { kind: 'provider' }>['specificationVersion']>().toEqualTypeOf<SpecificationVersionOf<'provider'>>();
    expectTypeOf<PluginBase<'tokenizer', 'x'>['specificationVersion']>().toEqualTypeOf<SpecificationVersionOf<'tokenizer'>>();
    // Every kind is in the map, and the run-time table has the same shape.
    expectTypeOf<keyof SpecificationVersions>().toEqualTypeOf<PluginKind>();
    expectTypeOf(supportedSpecificationVersions.tier).toEqualTypeOf<readonly SpecificationVersionOf<'tier'>[]>();
    expectTypeOf(supportedSpecificationVersions).toEqualTypeOf<SupportedSpecificationVersions>();
  });

  it('accepts the v1 plugins written today and refuses a version the kind does not have', () => {
    const tokenizer: TokenizerPlugin<'chars'> = { specificationVersion: 'v1', kind: 'tokenizer', id: 'chars', count: (text) => text.length };
    expectTypeOf(tokenizer.specificationVersion).toEqualTypeOf<'v1'>();
    const tier: TierPlugin<'future'> = {
      // @ts-expect-error the tier contract has no v2 in this release
      specificationVersion: 'v2',
      kind: 'tier',
      id: 'future',
      category: 'structural',
      apply: async () => ({ status: 'skipped', reason: 'test' }),
    };
    expectTypeOf(tier.kind).toEqualTypeOf<'tier'>();
    // @ts-expect-error a plugin base can only name a version its kind's contract has
    expectTypeOf<PluginBase<'tier', 'future', 'v2'>>().not.toBeNever();
  });
});
