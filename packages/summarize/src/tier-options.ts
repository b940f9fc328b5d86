import { CtxkitError } from '@ctxkit/core';

/** Bounds for {@link numberOption}. */
export interface NumberBounds {
  min: number;
  max?: number;
  integer?: boolean;
  /** Accept `Infinity` (for "no limit"). */
  infinite?: boolean;
}

/**
 * An option's value, or its default when it is undefined.
 * @throws CtxkitError INVALID_ARGUMENT naming the option, the value and the accepted range
 */
export function numberOption(source: string, name: string, value: number | undefined, fallback: number, bounds: NumberBounds): number {
  if (value === undefined) return fallback;
  const ok =
    typeof value === 'number' &&
    !Number.isNaN(value) &&
    (Number.isFinite(value) ? value >= bounds.min && value <= (bounds.max ?? Number.POSITIVE_INFINITY) && (!bounds.integer || Number.isInteger(value)) : bounds.infinite === true && value > 0);
  if (!ok) {
    const range = `${bounds.integer ? 'an integer' : 'a number'} from ${bounds.min}${bounds.max === undefined ? (bounds.infinite ? ' (or Infinity)' : ' up') : ` to ${bounds.max}`}`;
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `option ${name} must be ${range}, got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}` });
  }
  return value;
}

/** The options every summarizing tier takes. */
export interface SummaryOptions {
  /** Time for the whole summary (every summarizer call together); `Infinity` for none. */
  timeoutMs?: number;
  /** The most tokens the summary may take. */
  maxSummaryTokens?: number;
  /** Share of the task's key terms the summary's Task section must mention. @default 0.3 */
  taskTermCoverage?: number;
  /** Lines appended to the summarizer's instructions. */
  extraInstructions?: string;
}

/** {@link SummaryOptions} checked, with the tier's defaults filled in. */
export interface ResolvedSummaryOptions {
  timeoutMs: number;
  maxSummaryTokens: number;
  taskTermCoverage: number;
  extraInstructions?: string;
}

/**
 * Checks a summarizing tier's options and fills in its defaults.
 * @throws CtxkitError INVALID_ARGUMENT naming the option and what it accepts
 */
export function summaryOptions(source: string, options: SummaryOptions, defaults: { timeoutMs: number; maxSummaryTokens: number }): ResolvedSummaryOptions {
  if (options.extraInstructions !== undefined && typeof options.extraInstructions !== 'string') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `option extraInstructions must be a string, got ${typeof options.extraInstructions}` });
  }
  return {
    timeoutMs: numberOption(source, 'timeoutMs', options.timeoutMs, defaults.timeoutMs, { min: 1, infinite: true }),
    maxSummaryTokens: numberOption(source, 'maxSummaryTokens', options.maxSummaryTokens, defaults.maxSummaryTokens, { min: 64, integer: true }),
    taskTermCoverage: numberOption(source, 'taskTermCoverage', options.taskTermCoverage, 0.3, { min: 0, max: 1 }),
    ...(options.extraInstructions === undefined ? {} : { extraInstructions: options.extraInstructions }),
  };
}
