/**
 * Vercel AI SDK 7 adapter for ctxkit: ctxkitMiddleware, ctxkitPrepareStep, and the restore tool as an AI SDK tool.
 * @packageDocumentation
 */
export {
  type AiSdkCarried,
  type ConversionCache,
  createConversionCache,
  fromLanguageModelPrompt,
  fromModelMessages,
  toLanguageModelPrompt,
  toModelMessages,
} from './convert.ts';
export { type CtxkitMiddlewareOptions, ctxkitMiddleware, modelIdOf } from './middleware.ts';
export { type CtxkitPrepareStepOptions, ctxkitPrepareStep, type PrepareStepInput } from './prepare-step.ts';
export { type RestoreToolOptions, restoreTool, restoreToolName, storeOf } from './restore-tool.ts';
export { usageFromLanguageModel, usageFromStep } from './usage.ts';
