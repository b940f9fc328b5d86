/**
 * Tier 1 of ctxkit: an on-device summarizer on WebLLM (WebGPU) that folds older spans in chunks that fit
 * a small model's window, skipped with a reason where WebGPU or the model is unavailable.
 * @packageDocumentation
 */
export { type ContextWindowExceeded, contextWindowErrorText, parseContextWindowError } from './context-window-error.ts';
export type { WebllmEngineSource, WebllmWorker } from './engine-loader.ts';
export { checkWebgpu, type WebgpuAdapter, type WebgpuCheck, type WebgpuNavigator, type WebgpuRequirements } from './webgpu-check.ts';
export type { CreateWebllmEngine, WebllmChatCompletion, WebllmChatMessage, WebllmChatRequest, WebllmEngine, WebllmLoadProgress } from './webllm-engine.ts';
export { type WebllmSummarizer, type WebllmSummarizerOptions, webllmSummarizer } from './webllm-summarizer.ts';
export { defaultWebllmModel, type WebllmTier, type WebllmTierOptions, type WebllmTierProgress, webllmTier } from './webllm-tier.ts';
