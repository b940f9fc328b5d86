/**
 * Gemini provider for ctxkit: windows from models.get, usageMetadata usage, error classification and a summarizer.
 * @packageDocumentation
 */
export { geminiCatalog } from './gemini-catalog.ts';
export { type GeminiProviderOptions, geminiBaseURL, geminiProvider } from './gemini-provider.ts';
export { geminiUsage } from './gemini-usage.ts';
