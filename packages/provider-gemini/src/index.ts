/**
 * Gemini provider for ctxkit: windows from models.get, usageMetadata usage, error classification and a summarizer.
 * @packageDocumentation
 */
export { type GeminiProviderOptions, geminiBaseURL, geminiCatalog, geminiProvider } from './gemini-provider.ts';
export { geminiUsage } from './gemini-usage.ts';
