/**
 * Ollama provider for ctxkit: the window a model is served with (from /api/ps and /api/show), persisted;
 * prompt_eval_count usage, streamed or not; Ollama error classification; a summarizer on /api/chat.
 * @packageDocumentation
 */
// Shared with the other local-server providers; kept here so imports from this package go on working.
export { type LocalProvider, type LocalServerOptions, localDefaultContextWindow } from '@ctxkit/provider-utils';
export { ollamaErrorRules } from './ollama-error-rules.ts';
export { ollamaDefaultBaseURL, type OllamaProvider, type OllamaProviderOptions, ollamaProvider } from './ollama-provider.ts';
export { type OllamaFinalChunk, ollamaUsage } from './ollama-usage.ts';
export {
  modelfileParameter,
  normalizeOllamaModel,
  type OllamaPsResponse,
  type OllamaRunningModel,
  type OllamaShowResponse,
  type OllamaWindow,
  type OllamaWindowBasis,
  type OllamaWindowInput,
  ollamaWindow,
  trainedContextLength,
} from './ollama-window.ts';
