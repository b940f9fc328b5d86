import { CtxkitError } from '@ctxkit/core';

/** Which local counter a calibration ratio belongs to: the estimator, or the exact tokenizer. */
export type CounterKind = 'estimate' | 'exact';

/** Options for how provider reports calibrate local counts. */
export interface CalibrationOptions {
  /** The lowest ratio of real to local tokens ever applied. @default 0.5 */
  min?: number;
  /** The highest ratio ever applied. @default 2 */
  max?: number;
  /**
   * Weight of a new report against the running ratio (exponential smoothing); the first report of a
   * model is taken as it is. 1 follows the last report only.
   * @default 0.3
   */
  smoothing?: number;
}

/** One calibrated ratio: real tokens ÷ local count, and how many reports it rests on. */
export interface CalibrationEntry {
  ratio: number;
  samples: number;
}

/**
 * Calibration per model and counter, as plain JSON to persist through a store and give back to
 * `createMeter({ calibrations })`. The key `''` holds reports that named no model.
 */
export type CalibrationSnapshot = Record<string, Partial<Record<CounterKind, CalibrationEntry>>>;

/** Bounded, smoothed ratios of real to local token counts, per model and counter kind. */
export class Calibration {
  private readonly min: number;
  private readonly max: number;
  private readonly smoothing: number;
  private readonly entries = new Map<string, Partial<Record<CounterKind, CalibrationEntry>>>();

  constructor(options: CalibrationOptions = {}, snapshot?: CalibrationSnapshot) {
    this.min = options.min ?? 0.5;
    this.max = options.max ?? 2;
    this.smoothing = options.smoothing ?? 0.3;
    if (!(this.min > 0 && this.min <= 1 && this.max >= 1 && Number.isFinite(this.max))) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message: `calibration: need 0 < min ≤ 1 ≤ max < Infinity, got min ${this.min}, max ${this.max}` });
    }
    if (!(this.smoothing > 0 && this.smoothing <= 1)) {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message: `calibration: smoothing must be in (0, 1], got ${this.smoothing}` });
    }
    for (const [model, kinds] of Object.entries(snapshot ?? {})) {
      for (const kind of ['estimate', 'exact'] as const) {
        const entry = kinds?.[kind];
        if (entry === undefined) continue;
        if (typeof entry?.ratio !== 'number' || !Number.isFinite(entry.ratio) || entry.ratio <= 0) {
          throw new CtxkitError({
            code: 'INVALID_ARGUMENT',
            source: 'tokens',
            message: `calibrations[${JSON.stringify(model)}].${kind}.ratio must be a positive number, got ${JSON.stringify(entry?.ratio)}`,
          });
        }
        this.set(model, kind, { ratio: this.clamp(entry.ratio), samples: Math.max(1, Math.floor(entry.samples) || 1) });
      }
    }
  }

  private clamp(ratio: number): number {
    return Math.min(this.max, Math.max(this.min, ratio));
  }

  private set(model: string, kind: CounterKind, entry: CalibrationEntry): void {
    const kinds = this.entries.get(model) ?? {};
    kinds[kind] = entry;
    this.entries.set(model, kinds);
  }

  /** Folds one report in: `real` tokens the provider counted where the local counter said `local`. */
  observe(model: string, kind: CounterKind, real: number, local: number): void {
    if (!(real > 0 && local > 0)) return;
    const sample = this.clamp(real / local);
    const current = this.entries.get(model)?.[kind];
    const ratio = current ? this.clamp(current.ratio + this.smoothing * (sample - current.ratio)) : sample;
    this.set(model, kind, { ratio, samples: (current?.samples ?? 0) + 1 });
  }

  /** The ratio to multiply local counts of this model by; 1 before any report. */
  ratio(model: string, kind: CounterKind): number {
    return this.entries.get(model)?.[kind]?.ratio ?? 1;
  }

  snapshot(): CalibrationSnapshot {
    const snapshot: CalibrationSnapshot = {};
    for (const [model, kinds] of this.entries) snapshot[model] = structuredClone(kinds);
    return snapshot;
  }
}
