import { CtxkitError, type CtxkitErrorCode } from '@ctxkit/core';

/** Why a provider call failed, before any reading of the body. */
export type ProviderCallFailure =
  /** The server answered with an HTTP error status. */
  | 'http'
  /** No answer within the timeout (a hung server, a slow body). */
  | 'timeout'
  /** No connection: refused, reset, unknown host, network down. */
  | 'offline'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** The server answered 2xx with a body that is not the JSON it should be. */
  | 'malformed';

/** Options for {@link ProviderCallError}. */
export interface ProviderCallErrorOptions {
  /** The provider id, used as the message source: `[ctxkit:openai] ...`. */
  provider: string;
  failure: ProviderCallFailure;
  message: string;
  url?: string;
  status?: number;
  /** The response body as text, when there was one. */
  body?: string;
  headers?: Record<string, string>;
  cause?: unknown;
}

const codes: Record<ProviderCallFailure, CtxkitErrorCode> = {
  http: 'PROVIDER_ERROR',
  timeout: 'TIMEOUT',
  offline: 'PROVIDER_ERROR',
  aborted: 'ABORTED',
  malformed: 'PROVIDER_ERROR',
};

const marker = Symbol.for('ctxkit.provider-call-error');

/**
 * A failed call to a model API, with what `classifyError` needs: the status, the body text and the
 * headers. Its `code` is `TIMEOUT` for a timeout, `ABORTED` when the caller aborted, else `PROVIDER_ERROR`.
 * Check with {@link ProviderCallError.isInstance}, which works across duplicate installs.
 * @example
 * ```ts
 * try { await requestJson(url, { provider: 'openai' }); }
 * catch (error) { if (ProviderCallError.isInstance(error) && error.status === 429) wait(); }
 * ```
 */
export class ProviderCallError extends CtxkitError {
  readonly provider: string;
  readonly failure: ProviderCallFailure;
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly headers: Record<string, string>;
  protected readonly [marker] = true;

  constructor(options: ProviderCallErrorOptions) {
    super({ code: codes[options.failure], source: options.provider, message: options.message, cause: options.cause });
    this.name = 'ProviderCallError';
    this.provider = options.provider;
    this.failure = options.failure;
    this.url = options.url;
    this.status = options.status;
    this.body = options.body;
    this.headers = options.headers ?? {};
  }

  /** True for a ProviderCallError from this copy of the package or another. */
  static override isInstance(value: unknown): value is ProviderCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  /** True where trying again (here or on the next provider) can help: timeouts, no connection, 408, 409, 429 and 5xx. */
  get retryable(): boolean {
    if (this.failure === 'timeout' || this.failure === 'offline') return true;
    if (this.failure !== 'http' || this.status === undefined) return false;
    return this.status === 408 || this.status === 409 || this.status === 429 || this.status >= 500;
  }
}

/**
 * Parses a provider's JSON text; text that is not JSON becomes a `malformed` {@link ProviderCallError}
 * with the text as its body and the parse error as its cause; its message is written only then.
 * @throws ProviderCallError (failure `malformed`)
 */
export function parseProviderJson<T>(text: string, context: Omit<ProviderCallErrorOptions, 'failure' | 'body' | 'cause' | 'message'>, message: () => string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ProviderCallError({ ...context, failure: 'malformed', body: text, message: message(), cause: error });
  }
}

/**
 * What a discovery threw, as the host should hear it: a `TypeError` or `RangeError` raised while reading
 * an answer of another shape (`models.find is not a function` when `data` is not a list) becomes a
 * `malformed` {@link ProviderCallError} naming the server; anything else (already typed, or a network
 * failure) is returned unchanged.
 * @example throw unexpectedAnswer(error, { provider: 'vllm', url: root, what: 'discovery of qwen3-8b' })
 */
export function unexpectedAnswer(error: unknown, context: { provider: string; url: string; what: string }): unknown {
  if (!(error instanceof TypeError || error instanceof RangeError) || CtxkitError.isInstance(error) || error.cause !== undefined) return error;
  return new ProviderCallError({
    provider: context.provider,
    failure: 'malformed',
    url: context.url,
    message: `${context.url} answered the ${context.what} in a shape it does not have (${error.message})`,
    cause: error,
  });
}
