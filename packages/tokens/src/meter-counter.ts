import { CtxkitError, type TokenizerPlugin } from '@ctxkit/core';
import type { CounterKind } from './calibration.ts';
import type { MeterState } from './meter-state.ts';

/** Whether the exact tokenizer can count now (loaded through the meter, or already loaded by its owner). */
export function isExactAvailable(state: MeterState): boolean {
  if (!state.tokenizerLoaded && state.tokenizer && (state.tokenizer as { loaded?: boolean }).loaded === true) state.tokenizerLoaded = true;
  return state.tokenizerLoaded;
}

/** The text counter of a kind: the tokenizer for `exact`, the estimator otherwise. */
export function counterFor(state: MeterState, kind: CounterKind): (text: string) => number {
  return kind === 'exact' ? (text: string) => (state.tokenizer as TokenizerPlugin).count(text) : (text: string) => state.estimator.estimate(text);
}

/**
 * Which counter a call uses: what `exact` asks for, else exact once the tokenizer is loaded.
 * @throws CtxkitError TOKENIZER_FAILED for `exact: true` without a loaded tokenizer, naming `where`
 */
export function counterKind(state: MeterState, exact: boolean | undefined, where: string): CounterKind {
  const { tokenizer } = state;
  if (exact === false || tokenizer === undefined) {
    if (exact === true) throw new CtxkitError({ code: 'TOKENIZER_FAILED', source: 'tokens', message: `${where}: exact: true needs a tokenizer; createMeter({ tokenizer }) has none` });
    return 'estimate';
  }
  if (isExactAvailable(state)) return 'exact';
  if (exact === true) {
    throw new CtxkitError({ code: 'TOKENIZER_FAILED', source: 'tokens', message: `${where}: exact: true before the tokenizer ${tokenizer.id} was loaded; await meter.ready() first` });
  }
  return 'estimate';
}

/**
 * Loads the tokenizer once (a failed load may be retried).
 * @throws CtxkitError TOKENIZER_FAILED naming the tokenizer
 */
export function loadTokenizer(state: MeterState): Promise<void> {
  const { tokenizer } = state;
  if (!tokenizer?.load) return Promise.resolve();
  state.readyPromise ??= tokenizer.load().then(
    () => {
      state.tokenizerLoaded = true;
    },
    (cause: unknown) => {
      state.readyPromise = undefined;
      if (CtxkitError.isInstance(cause)) throw cause;
      throw new CtxkitError({
        code: 'TOKENIZER_FAILED',
        source: 'tokens',
        message: `tokenizer ${tokenizer.id} failed to load: ${(cause as Error)?.message ?? String(cause)}`,
        cause,
      });
    },
  );
  return state.readyPromise;
}

/** The calibration key of a model: `''` when none is named. */
export function modelKey(model: string | undefined): string {
  return model ?? '';
}
