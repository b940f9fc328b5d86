/**
 * OpenRouter provider for ctxkit: windows from the models list (the top provider), usage, wrapped
 * upstream errors, and a summarizer.
 * @packageDocumentation
 */
export { openrouterCatalog } from './openrouter-catalog.ts';
export { type OpenRouterProviderOptions, openrouterBaseURL, openrouterProvider } from './openrouter-provider.ts';
export { openrouterUsage } from './openrouter-usage.ts';
