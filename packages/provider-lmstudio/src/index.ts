/**
 * LM Studio provider for ctxkit: the loaded context length of a model (from /api/v0/models), persisted;
 * OpenAI-compatible usage, streamed or not; LM Studio error classification; a summarizer.
 * @packageDocumentation
 */
export { type LocalProvider, type LocalServerOptions, localDefaultContextWindow } from './local-provider.ts';
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
export { type CompatibleTimings, type CompatibleUsage, openaiCompatibleUsage } from './openai-compatible.ts';
