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
