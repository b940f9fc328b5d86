import { expect } from 'vitest';
import { classifyError, type ProviderErrorClassification } from '../classify-error.ts';

/** What the provider-error fixtures share: a real error string, where it came from, and what it must classify as. */
export interface ProviderErrorEntry {
  provider: string;
  /** The HTTP status it came with; null for a message or body seen without one. */
  status: number | null;
  kind: string;
  body_or_message: string;
  source: string;
  reported_tokens?: number;
  limit_tokens?: number;
  retryable?: boolean;
  fallback?: boolean;
  /** The provider the classifier is told about (`classifyError(error, { provider })`). */
  provider_option?: string;
}

/** Classifies an entry as a caller would hand it over: a bare string, or `{ status, body }`. */
export function classifyEntry(entry: ProviderErrorEntry): ProviderErrorClassification {
  const error = entry.status === null ? entry.body_or_message : { status: entry.status, body: entry.body_or_message };
  return classifyError(error, entry.provider_option ? { provider: entry.provider_option } : {});
}

/** Asserts the kind and every figure and flag the entry states. */
export function expectClassifiedAsStated(entry: ProviderErrorEntry): void {
  const result = classifyEntry(entry);
  expect(result.kind).toBe(entry.kind);
  if (entry.limit_tokens !== undefined) expect(result.limitTokens).toBe(entry.limit_tokens);
  // `input + max_tokens > limit` errors: the count may be the total or the input part.
  if (entry.reported_tokens !== undefined) expect([result.reportedTokens, result.inputTokens]).toContain(entry.reported_tokens);
  if (entry.retryable !== undefined) expect(result.retryable).toBe(entry.retryable);
  if (entry.fallback !== undefined) expect(result.fallback).toBe(entry.fallback);
}
