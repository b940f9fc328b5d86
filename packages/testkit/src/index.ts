/**
 * Conformance suite and fast-check transcript generators for ctxkit tiers.
 * @packageDocumentation
 */
export { type AppliedOutcome, appliedOutcome } from './applied-outcome.ts';
export { approximateCount } from './approximate-count.ts';
export {
  canonical,
  checkTierConformance,
  checkTierOutput,
  runTierConformance,
  type TierConformanceOptions,
  type TierConformanceReport,
  type TierOutputCheck,
} from './conformance.ts';
export { type RedisTestServer, type RedisTestServerOptions, redisMissingMessage, redisServerPath, startRedisServer } from './redis-server.ts';
export { hangingStore } from './hanging-store.ts';
export { checkStoreConformance, runStoreConformance, type StoreConformanceOptions } from './store-conformance.ts';
export { deterministicSummarizer, scriptedSummarizer } from './summarizers.ts';
export { createTierContext } from './tier-context.ts';
export { type TranscriptArbitraryOptions, transcriptArbitrary } from './transcript-arbitrary.ts';
export { corpusDir, corpusMissingMessage, listTrajectories, parseTrajectory, readTrajectory } from './corpus.ts';
export {
  type ConformingProvider,
  type ProviderConformanceOptions,
  type ProviderConformanceSettings,
  runProviderConformance,
} from './provider-conformance.ts';
export { expectProviderTypes, type ProviderTypeCheck, type ProviderTypeIds } from './provider-types.ts';
export {
  type ProviderErrorCorpusOptions,
  type ProviderErrorEntry,
  providerErrorInput,
  readProviderErrors,
  runProviderErrorCorpus,
} from './provider-errors.ts';
export {
  closeTestServers,
  type FixtureReader,
  fixtureReader,
  type JsonAnswer,
  type RecordedRequest,
  refusedURL,
  routes,
  type SendStreamOptions,
  sendJson,
  sendStream,
  startTestServer,
  type TestRoutes,
  type TestServer,
  type TestServerHandler,
} from './test-server.ts';
