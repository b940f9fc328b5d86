/**
 * Shared base of the ctxkit provider adapters: HTTP JSON and stream helpers with typed errors, error
 * classification, the window cache, the fallback chain, the summarizer helper, and the hosted-API and
 * local-server provider bases.
 * @packageDocumentation
 */
export { apiKeyFrom, trimBaseURL } from './api-key.ts';
export {
  type ApiSummarizerOptions,
  createApiSummarizer,
  renderTranscript,
  type SummaryCompletionRequest,
} from './api-summarizer.ts';
export {
  type ClassifierRule,
  classifyError,
  classifyResponse,
  createErrorClassifier,
  type NormalizedError,
  normalizeError,
  type ProviderErrorClassification,
  type ProviderErrorDetails,
} from './classify-error.ts';
export {
  type FallbackAttempt,
  type FallbackChain,
  type FallbackContext,
  type FallbackOptions,
  type FallbackResult,
  type FallbackSwitch,
  type FallbackTarget,
  withFallback,
} from './fallback-chain.ts';
export {
  createHostedProvider,
  type HostedCompletionContext,
  type HostedDiscoveryContext,
  type HostedProviderOptions,
  type HostedProviderSpec,
} from './hosted-provider.ts';
export {
  defaultMaxBodyBytes,
  defaultRequestTimeoutMs,
  isOfflineCode,
  networkErrorCode,
  type OpenResponse,
  request,
  type RequestOptions,
  requestJson,
  requestOptionalJson,
} from './http.ts';
export {
  checkWholeNumberOption,
  createLocalProvider,
  type LocalCompletionContext,
  type LocalDiscoveredLimits,
  type LocalDiscoveryContext,
  type LocalProvider,
  type LocalProviderSpec,
  type LocalServerOptions,
  localDefaultContextWindow,
  serverRoot,
} from './local-provider.ts';
export {
  type CatalogLimits,
  type CatalogLookup,
  catalogFromModelsDev,
  conservativeDefaultWindow,
  type ModelsDevProvider,
  modelCatalog,
  modelsDevCatalog,
} from './model-catalog.ts';
export {
  type CompatibleTimings,
  type CompatibleUsage,
  completeWithChatCompletions,
  completeWithHostedChat,
  openaiCompatibleUsage,
  summaryMessages,
} from './openai-compatible.ts';
export {
  createProviderPlugin,
  type ProviderPluginOptions,
  type ProviderPluginWithWindows,
  type ProviderSummarizerOptions,
} from './provider-plugin.ts';
export { ProviderCallError, type ProviderCallErrorOptions, type ProviderCallFailure } from './provider-call-error.ts';
export { headerValue, parseDuration, retryAfterMs } from './retry-after.ts';
export { stripThinking } from './strip-thinking.ts';
export { jsonObjectsOfText, lastUsage, tokenCount, usageCandidates, usageFrom } from './usage-fields.ts';
export {
  type JsonStreamOptions,
  readJsonEvents,
  readJsonLines,
  readLines,
  readServerSentEvents,
  type ServerSentEvent,
} from './stream-reader.ts';
export {
  createWindowCache,
  type DiscoveredLimits,
  discoveredLimits,
  type DiscoverLimits,
  type DiscoverOptions,
  type StoredWindow,
  type WindowCache,
  type WindowCacheOptions,
} from './window-cache.ts';
