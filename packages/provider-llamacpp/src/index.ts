/**
 * llama.cpp server provider for ctxkit: the slot context size (from /props and /v1/models, router mode
 * included), persisted; OpenAI-compatible usage, streamed or not; llama.cpp error classification; a summarizer.
 * @packageDocumentation
 */
// Shared with the other local-server providers; kept here so imports from this package go on working.
export { type CompatibleTimings, type CompatibleUsage, type LocalProvider, type LocalServerOptions, localDefaultContextWindow, openaiCompatibleUsage } from '@ctxkit/provider-utils';
export { llamacppErrorRules } from './llamacpp-error-rules.ts';
export { llamacppDefaultBaseURL, type LlamaCppProvider, type LlamaCppProviderOptions, llamacppProvider } from './llamacpp-provider.ts';
export {
  contextFromArguments,
  type LlamaCppModel,
  type LlamaCppModelsResponse,
  type LlamaCppProps,
  type LlamaCppWindow,
  type LlamaCppWindowBasis,
  llamacppWindow,
} from './llamacpp-window.ts';
