/**
 * Anthropic provider for ctxkit: windows from the Models API, usage with cache reads and writes, error
 * classification and a summarizer.
 * @packageDocumentation
 */
export { anthropicCatalog } from './anthropic-catalog.ts';
export { type AnthropicProviderOptions, anthropicBaseURL, anthropicProvider } from './anthropic-provider.ts';
export { anthropicUsage } from './anthropic-usage.ts';
