/** Every error code ctxkit throws; switch on `error.code`, not on the message text. */
export type CtxkitErrorCode =
  | 'INVALID_TRANSCRIPT'
  | 'INVALID_ARGUMENT'
  | 'INVALID_PLUGIN'
  | 'UNSUPPORTED_SPECIFICATION'
  | 'DUPLICATE_PLUGIN'
  | 'PLUGIN_NOT_FOUND'
  | 'TOKENIZER_FAILED'
  | 'SUMMARY_REJECTED'
  | 'TIER_FAILED'
  | 'PROVIDER_ERROR'
  | 'STORE_ERROR'
  | 'SCHEMA_ERROR'
  | 'NOT_FOUND'
  | 'TIMEOUT'
  | 'ABORTED';

/** Options for {@link CtxkitError}. */
export interface CtxkitErrorOptions {
  code: CtxkitErrorCode;
  /** What went wrong and where, without the `[ctxkit:source]` prefix. */
  message: string;
  /** The package or plugin that raised it, used as the prefix: `tier-summary`. @default 'core' */
  source?: string;
  cause?: unknown;
  /** Structured detail, for example the list of transcript issues. */
  details?: unknown;
}

const marker = Symbol.for('ctxkit.error');

/**
 * The one error class of ctxkit. Messages say where they come from:
 * `[ctxkit:tier-summary] summary lost the task text`.
 *
 * Check with {@link CtxkitError.isInstance}, not `instanceof`: two installed copies of
 * `@ctxkit/core` (a duplicate install) each have their own class, and `isInstance` recognises both.
 * @example
 * ```ts
 * try { assertValidTranscript(messages); }
 * catch (error) { if (CtxkitError.isInstance(error) && error.code === 'INVALID_TRANSCRIPT') console.log(error.details); }
 * ```
 */
export class CtxkitError extends Error {
  readonly code: CtxkitErrorCode;
  readonly source: string;
  readonly details: unknown;
  // The brand isInstance looks for; a symbol from the global registry is the same in every copy.
  protected readonly [marker] = true;

  constructor(options: CtxkitErrorOptions) {
    const source = options.source ?? 'core';
    super(`[ctxkit:${source}] ${options.message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CtxkitError';
    this.code = options.code;
    this.source = source;
    this.details = options.details;
  }

  /** True for any ctxkit error, from this copy of the package or another; optionally of one code. */
  static isInstance(value: unknown, code?: CtxkitErrorCode): value is CtxkitError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true && (code === undefined || (value as CtxkitError).code === code);
  }
}
