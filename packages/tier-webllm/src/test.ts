/**
 * Test doubles for `@ctxkit/tier-webllm`, kept out of the runtime entry (as `ai/test` is): an engine
 * double that answers like WebLLM's MLCEngine without a GPU or a model download.
 * @example
 * ```ts
 * import { webllmTier } from '@ctxkit/tier-webllm';
 * import { createEngineDouble } from '@ctxkit/tier-webllm/test';
 * const tier = webllmTier({ engine: createEngineDouble({ contextWindow: 4_096 }) });
 * ```
 * @packageDocumentation
 */
export { createEngineDouble, type EngineDouble, type EngineDoubleCall, type EngineDoubleOptions } from './engine-double.ts';
