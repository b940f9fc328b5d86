/**
 * LM Studio provider for ctxkit: the loaded context length of a model (from /api/v0/models), persisted;
 * OpenAI-compatible usage, streamed or not; LM Studio error classification; a summarizer.
 * @packageDocumentation
 */
// Shared with the other local-server providers; kept here so imports from this package go on working.
export { type CompatibleTimings, type CompatibleUsage, type LocalProvider, type LocalServerOptions, localDefaultContextWindow, openaiCompatibleUsage } from '@ctxkit/provider-utils';
export { lmstudioErrorRules } from './lmstudio-error-rules.ts';
export { lmstudioDefaultBaseURL, type LmStudioProvider, type LmStudioProviderOptions, lmstudioProvider } from './lmstudio-provider.ts';
export {
  type LmStudioModel,
  type LmStudioModelsResponse,
  type LmStudioV1Model,
  type LmStudioV1ModelsResponse,
  type LmStudioWindow,
  lmstudioWindow,
} from './lmstudio-window.ts';
