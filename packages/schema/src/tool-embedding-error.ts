import { CtxkitError } from '@ctxkit/core';

/** What was wrong with an embedding, in {@link ToolEmbeddingError.problem}. */
export type ToolEmbeddingProblem =
  /** `embed` or `embedMany` threw, or its promise rejected; the embedder's own error is the `cause`. */
  | 'threw'
  /** Neither an array of numbers nor `undefined` (an object, a string, an empty array). */
  | 'not-a-vector'
  /** A vector whose length differs from the tools' vectors (another model, a truncated answer). */
  | 'wrong-length'
  /** A vector holding `NaN` or an infinity. */
  | 'not-finite'
  /** `embedMany` returned another number of vectors than it was given texts. */
  | 'wrong-count';

/** Options for {@link ToolEmbeddingError}. */
export interface ToolEmbeddingErrorOptions {
  problem: ToolEmbeddingProblem;
  message: string;
  /** Position of the tool (the first of the batch for `embedMany`) in the list given to `createToolSearch`; undefined for the query. */
  toolIndex?: number | undefined;
  toolName?: string | undefined;
  /** The query, when it was the query's embedding that failed. */
  query?: string | undefined;
  cause?: unknown;
}

const marker = Symbol.for('ctxkit.tool-embedding-error');

/**
 * An embedder passed to `createToolSearch({ semantic })` failed on a tool or a query: it threw, or
 * returned something that is not a vector of the tools' length with finite numbers. Its `code` is
 * `INVALID_ARGUMENT`, `problem` says what went wrong, and `toolIndex` / `toolName` or `query` say
 * on what. Check with {@link ToolEmbeddingError.isInstance}, which works across duplicate installs.
 * @example
 * ```ts
 * try { await index.searchAsync(request); }
 * catch (error) { if (ToolEmbeddingError.isInstance(error) && error.problem === 'threw') console.log(error.cause); }
 * ```
 */
export class ToolEmbeddingError extends CtxkitError {
  readonly problem: ToolEmbeddingProblem;
  readonly toolIndex: number | undefined;
  readonly toolName: string | undefined;
  readonly query: string | undefined;
  protected readonly [marker] = true;

  constructor(options: ToolEmbeddingErrorOptions) {
    super({ code: 'INVALID_ARGUMENT', source: 'schema', message: options.message, cause: options.cause });
    this.name = 'ToolEmbeddingError';
    this.problem = options.problem;
    this.toolIndex = options.toolIndex;
    this.toolName = options.toolName;
    this.query = options.query;
  }

  /** True for a ToolEmbeddingError from this copy of the package or another. */
  static override isInstance(value: unknown): value is ToolEmbeddingError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
