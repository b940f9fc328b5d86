/**
 * Tier 0 of ctxkit: fold the middle of an agent transcript into a structured summary written by the
 * active model, with chunking, merging of earlier summaries, injection framing and rejection of bad summaries.
 * @packageDocumentation
 */
export { summarySections } from '@ctxkit/summarize';
export { type SummaryTierOptions, summaryTier } from './summary-tier.ts';
