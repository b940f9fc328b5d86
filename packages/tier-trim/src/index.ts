/**
 * Tier 2 of ctxkit, the last resort: fold the middle of an agent transcript into a summary, or into a
 * factual note built without any model (files, commands, errors, plan).
 * @packageDocumentation
 */
export { factualNoteSummarizer } from './factual-note-summarizer.ts';
export { type TrimTierOptions, trimTier } from './trim-tier.ts';
