/**
 * Measure a transcript the way the provider counts it: provider anchor, estimators, cached exact
 * counting on js-tiktoken, calibration, fixed floor apart from the growing part.
 * @packageDocumentation
 */
export type { CalibrationEntry, CalibrationOptions, CalibrationSnapshot, CounterKind } from './calibration.ts';
export { type HeuristicEstimatorOptions, heuristicEstimator } from './heuristic-estimator.ts';
export { type ImagePart, type ImageTokens, imageTokenPresets } from './message-cost.ts';
export { createMeter } from './meter.ts';
export type { Breakdown, MeasureOptions, Measurement, Meter, MeterOptions, UsageReport } from './meter-types.ts';
export { checkPlausibleUsageRatio, type DistrustedUsage, defaultPlausibleUsageRatio, isPlausibleUsage } from './usage-check.ts';
export { type TiktokenCounter, type TiktokenCounterOptions, type TiktokenEncoding, tiktokenCounter } from './tiktoken-counter.ts';
