/**
 * LangChain.js v1 adapter for ctxkit: createAgent middleware, BaseMessage conversion, and the restore tool as a LangChain tool.
 * @packageDocumentation
 */
export {};
