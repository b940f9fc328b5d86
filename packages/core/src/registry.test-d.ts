import { describe, expectTypeOf, it } from 'vitest';
import { memoryStore } from './memory-store.ts';
import type { SummarizerPlugin, TierPlugin } from './plugin.ts';
import { createRegistry } from './registry.ts';

declare function microcompactTier(): TierPlugin<'microcompact'>;
declare function webllmTier(): TierPlugin<'webllm'>;
declare function echoSummarizer(): SummarizerPlugin<'echo'>;
declare const onDevice: boolean;

describe('registry typing', () => {
  it('infers the ids that were registered', () => {
    const registry = createRegistry([microcompactTier(), memoryStore(), echoSummarizer()]);
    expectTypeOf(registry.tier('microcompact')).toEqualTypeOf<TierPlugin<'microcompact'>>();
    expectTypeOf(registry.store('memory').id).toEqualTypeOf<'memory'>();
    expectTypeOf(registry.summarizer('echo')).toEqualTypeOf<SummarizerPlugin<'echo'>>();
    expectTypeOf(registry.get('tier', 'microcompact')).toEqualTypeOf<TierPlugin<'microcompact'>>();
    expectTypeOf(registry.all('tier')).toEqualTypeOf<TierPlugin<'microcompact'>[]>();
    // @ts-expect-error 'trim' was not registered
    registry.tier('trim');
    // @ts-expect-error no provider was registered at all
    registry.provider('openai');
    // @ts-expect-error 'echo' is a summarizer, not a tier
    registry.tier('echo');
  });

  it('keeps conditionally registered plugins and drops the falsy branch', () => {
    const registry = createRegistry([microcompactTier(), onDevice && webllmTier()]);
    expectTypeOf(registry.tier('webllm')).toEqualTypeOf<TierPlugin<'webllm'>>();
    expectTypeOf(registry.plugins).toEqualTypeOf<readonly (TierPlugin<'microcompact'> | TierPlugin<'webllm'>)[]>();
  });
});
