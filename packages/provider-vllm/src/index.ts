/**
 * vLLM provider for ctxkit: max_model_len of the served model (from /v1/models), persisted;
 * OpenAI-compatible usage, streamed or not; vLLM error classification; a summarizer.
 * @packageDocumentation
 */
// Shared with the other local-server providers; kept here so imports from this package go on working.
export { type CompatibleTimings, type CompatibleUsage, type LocalProvider, type LocalServerOptions, localDefaultContextWindow, openaiCompatibleUsage } from '@ctxkit/provider-utils';
export { vllmErrorRules } from './vllm-error-rules.ts';
export { vllmDefaultBaseURL, type VllmProvider, type VllmProviderOptions, vllmProvider } from './vllm-provider.ts';
export { type VllmModel, type VllmModelsResponse, vllmWindow } from './vllm-window.ts';
