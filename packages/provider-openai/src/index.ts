/**
 * OpenAI provider for ctxkit: Chat Completions and Responses usage, model windows from a maintained
 * catalog, error classification and a summarizer; works with OpenAI-compatible hosts such as DeepSeek.
 * @packageDocumentation
 */
export { openaiCatalog } from './openai-catalog.ts';
export { type OpenAIProviderOptions, openaiBaseURL, openaiProvider } from './openai-provider.ts';
export { openaiUsage } from './openai-usage.ts';
