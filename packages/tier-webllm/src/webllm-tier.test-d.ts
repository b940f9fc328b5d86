import { createRegistry, type SummarizerPlugin, type TierPlugin } from '@ctxkit/core';
import { expectTypeOf, it } from 'vitest';
import { createEngineDouble } from './engine-double.ts';
import { webllmSummarizer } from './webllm-summarizer.ts';
import { type WebllmTier, webllmTier } from './webllm-tier.ts';

it('registers under its literal id, as an on-device tier, and in the falsy-gated form', () => {
  const onDevice = true as boolean;
  const registry = createRegistry([onDevice && webllmTier(), webllmSummarizer({ engine: createEngineDouble() })]);
  expectTypeOf(registry.tier('webllm')).toEqualTypeOf<WebllmTier>();
  expectTypeOf(registry.tier('webllm').category).toEqualTypeOf<'on-device'>();
  expectTypeOf(registry.summarizer('webllm')).toExtend<SummarizerPlugin<'webllm'>>();
  expectTypeOf(webllmTier()).toExtend<TierPlugin<'webllm'>>();
  // @ts-expect-error: only registered ids can be asked for
  registry.tier('summary');
});
