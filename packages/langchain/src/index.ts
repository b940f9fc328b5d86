/**
 * LangChain.js v1 adapter for ctxkit: createAgent middleware, BaseMessage conversion, and the restore tool as a LangChain tool.
 * @packageDocumentation
 */
export { type ConversionCache, createConversionCache, fromBaseMessages, type LangChainCarried, toBaseMessages } from './convert.ts';
export { type CtxkitMiddlewareOptions, ctxkitMiddleware, modelIdOf } from './middleware.ts';
export { type RestoreToolOptions, restoreTool } from './restore-tool.ts';
export { usageFromMessage } from './usage.ts';
