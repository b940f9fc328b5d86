/**
 * llama.cpp server provider for ctxkit: the slot context size (from /props and /v1/models, router mode
 * included), persisted; OpenAI-compatible usage, streamed or not; llama.cpp error classification; a summarizer.
 * @packageDocumentation
 */
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
export { type LocalProvider, type LocalServerOptions, localDefaultContextWindow } from './local-provider.ts';
export { type CompatibleTimings, type CompatibleUsage, openaiCompatibleUsage } from './openai-compatible.ts';
