import { CtxkitError } from '@ctxkit/core';
import { source } from './archive.ts';
import type { StubDetailOptions } from './stub-digest.ts';
import { defaultStubText, type StubDescription } from './stub-text.ts';

/** Options for {@link microcompactTier}. */
export interface MicrocompactOptions {
  /** The most recent tool results that stay verbatim, counted over the whole transcript. @default 3 */
  keepRecent?: number;
  /**
   * Do nothing unless archiving frees at least this many tokens: each compaction rewrites the prompt
   * and loses the provider's prompt cache behind the first change, which a few tokens do not repay.
   * @default 2000
   */
  minSavingsTokens?: number;
  /** Tool results whose text is shorter than this stay verbatim: a stub would save little and cost a restore call. @default 100 */
  minResultTokens?: number;
  /** Tools whose results are never archived (results the model must always see, such as a plan or todo list). @default [] */
  excludeTools?: readonly string[];
  /** Writes the stub's text; it must contain the handle, or the model could not restore the original. @default defaultStubText */
  stubText?: (stub: StubDescription) => string;
  /**
   * What a stub keeps of its output so the model still recognises it without a restore: head and tail
   * lines and the names in between (paths, identifiers, line numbers), within a budget that grows with
   * the output; `false` for a bare handle. @default { lines: 2, lineLength: 100, maxCharacters: 480, share: 0.15 }
   */
  stubDetail?: StubDetailOptions | false;
  /**
   * How many old results to archive: `'target'` archives the oldest first, just enough to bring the
   * transcript to the target (and at least `minSavingsTokens`), leaving newer results verbatim; `'all'`
   * archives every old result. @default 'target'
   */
  archive?: 'target' | 'all';
}

/** {@link MicrocompactOptions} checked, with the defaults filled in. */
export interface MicrocompactSettings {
  keepRecent: number;
  minSavingsTokens: number;
  minResultTokens: number;
  excluded: ReadonlySet<string>;
  stubText: (stub: StubDescription) => string;
  stubDetail: StubDetailOptions | false;
  archive: 'target' | 'all';
}

function checkCount(name: string, value: number, at: number): void {
  if (!Number.isInteger(value) || value < at) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `microcompactTier option ${name} must be an integer ≥ ${at}, got ${String(value)}` });
  }
}

/**
 * Checks microcompaction's options and fills in the defaults.
 * @throws CtxkitError INVALID_ARGUMENT naming the option and what it accepts
 */
export function microcompactSettings(options: MicrocompactOptions): MicrocompactSettings {
  const { keepRecent = 3, minSavingsTokens = 2_000, minResultTokens = 100, excludeTools = [], stubText = defaultStubText, stubDetail = {}, archive = 'target' } = options;
  if (archive !== 'target' && archive !== 'all')
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `microcompactTier option archive must be 'target' or 'all', got ${JSON.stringify(archive)}` });
  checkCount('keepRecent', keepRecent, 0);
  checkCount('minSavingsTokens', minSavingsTokens, 0);
  checkCount('minResultTokens', minResultTokens, 0);
  if (!Array.isArray(excludeTools) || excludeTools.some((name) => typeof name !== 'string')) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: 'microcompactTier option excludeTools must be an array of tool names' });
  }
  if (typeof stubText !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source, message: `microcompactTier option stubText must be a function, got ${typeof stubText}` });
  }
  return { keepRecent, minSavingsTokens, minResultTokens, excluded: new Set(excludeTools), stubText, stubDetail, archive };
}
