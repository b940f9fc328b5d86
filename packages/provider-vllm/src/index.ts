/**
 * vLLM provider for ctxkit: max_model_len of the served model (from /v1/models), persisted;
 * OpenAI-compatible usage, streamed or not; vLLM error classification; a summarizer.
 * @packageDocumentation
 */
export { type LocalProvider, type LocalServerOptions, localDefaultContextWindow } from './local-provider.ts';
export { type CompatibleTimings, type CompatibleUsage, openaiCompatibleUsage } from './openai-compatible.ts';
export { vllmErrorRules } from './vllm-error-rules.ts';
export { vllmDefaultBaseURL, type VllmProvider, type VllmProviderOptions, vllmProvider } from './vllm-provider.ts';
export { type VllmModel, type VllmModelsResponse, vllmWindow } from './vllm-window.ts';
