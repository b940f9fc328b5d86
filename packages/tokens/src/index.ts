/**
 * Measure a transcript the way the provider counts it: provider anchor, estimators, cached exact counting on js-tiktoken, calibration, fixed floor apart from the growing part.
 * @packageDocumentation
 */
export {};
