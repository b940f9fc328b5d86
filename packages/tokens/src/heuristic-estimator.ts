import { CtxkitError, type EstimatorPlugin } from '@ctxkit/core';

/** Options for {@link heuristicEstimator}. */
export interface HeuristicEstimatorOptions {
  /** Characters per token of ordinary text before inflation. @default 4 */
  charsPerToken?: number;
  /**
   * Characters per token of scripts written without spaces (Chinese, Japanese, Korean), which
   * tokenizers split far finer than Latin text; 0 counts them like any other character.
   * @default 1
   */
  denseCharsPerToken?: number;
  /** Multiplier on the result, so the estimate errs high: dense code is nearer 3.3 characters a token. @default 1.25 */
  inflation?: number;
}

// CJK radicals to CJK ideographs (kana, bopomofo, CJK symbols included), Hangul syllables, CJK compatibility ideographs, full-width forms.
const denseScript = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;
const denseScriptTest = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'tokens',
      message: `heuristicEstimator: ${name} must be a finite number ${allowZero ? '≥ 0' : '> 0'}, got ${value}`,
    });
  }
  return value;
}

/**
 * The default estimator: characters ÷ 4, raised 25% (DESIGN.md §5), with CJK, kana and Hangul at one
 * token a character. No tokenizer, no ranks; it errs high on purpose, and a meter's calibration brings
 * it to the model's real counts after the first provider report.
 * @throws CtxkitError INVALID_ARGUMENT for a non-positive or non-finite option
 * @example
 * ```ts
 * heuristicEstimator().estimate('x'.repeat(400)); // 125: 400 / 4 × 1.25
 * heuristicEstimator({ charsPerToken: 3.3, inflation: 1 }).estimate(code);
 * ```
 */
export function heuristicEstimator(options: HeuristicEstimatorOptions = {}): EstimatorPlugin<'heuristic'> {
  const charsPerToken = positive('charsPerToken', options.charsPerToken ?? 4);
  const denseCharsPerToken = positive('denseCharsPerToken', options.denseCharsPerToken ?? 1, true);
  const inflation = positive('inflation', options.inflation ?? 1.25);
  return {
    specificationVersion: 'v1',
    kind: 'estimator',
    id: 'heuristic',
    estimate(text) {
      if (typeof text !== 'string') {
        throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message: `heuristic: estimate() takes a string, got ${text === null ? 'null' : typeof text}` });
      }
      if (text.length === 0) return 0;
      let tokens = text.length / charsPerToken;
      if (denseCharsPerToken > 0 && denseScriptTest.test(text)) {
        const dense = text.match(denseScript)?.length ?? 0;
        tokens = (text.length - dense) / charsPerToken + dense / denseCharsPerToken;
      }
      return Math.ceil(tokens * inflation);
    },
  };
}
