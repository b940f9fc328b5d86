import { CtxkitError } from '@ctxkit/core';
import { ProviderCallError, parseProviderJson } from './provider-call-error.ts';

/** Options for {@link requestJson} and {@link request}. */
export interface RequestOptions {
  /** The provider id, named in every error: `[ctxkit:openai] ...`. */
  provider: string;
  /** @default 'GET', or 'POST' when a body is given */
  method?: string;
  headers?: Record<string, string | undefined>;
  /** A value to send as JSON. */
  body?: unknown;
  /** Gives up after this many milliseconds, body included. @default 60_000 */
  timeoutMs?: number;
  /** The caller's signal; aborting it ends the call with a `ProviderCallError` of code ABORTED. */
  signal?: AbortSignal;
  /** A fetch to use instead of the global one (a proxy agent, a recorder). */
  fetch?: typeof globalThis.fetch;
  /**
   * The largest body read into memory: a JSON answer above it is refused, an error body is cut to it.
   * Streams read through {@link request} are not limited. @default 33_554_432 (32 MiB)
   */
  maxBodyBytes?: number;
}

/** The default {@link RequestOptions.maxBodyBytes}: 32 MiB, far above any models list or completion. */
export const defaultMaxBodyBytes = 32 * 1024 * 1024;

/** The default request timeout in milliseconds. */
export const defaultRequestTimeoutMs = 60_000;

const offlineCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const timeoutCodes = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The `code` of an error or of any error in its cause chain (`ECONNREFUSED` hides in fetch's cause). */
export function networkErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (offlineCodes.has(code) || timeoutCodes.has(code))) return code;
    const nested = (current as { errors?: unknown }).errors;
    if (Array.isArray(nested)) {
      for (const inner of nested) {
        const innerCode = networkErrorCode(inner);
        if (innerCode) return innerCode;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when a network error code means no connection (as opposed to a slow one). */
export function isOfflineCode(code: string): boolean {
  return offlineCodes.has(code);
}

function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return headers;
}

function excerpt(text: string, length = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

/**
 * A response's body as text, reading no more than `limit` bytes: a server answering with an endless or
 * enormous body must not take the process's memory (a 1 GB body would need several GB as a string).
 * Returns `truncated` instead of the rest.
 */
async function readLimited(response: Response, limit: number): Promise<{ text: string; truncated: boolean }> {
  const declared = Number(response.headers.get('content-length'));
  if (!response.body || (Number.isFinite(declared) && declared > limit)) {
    if (response.body) await response.body.cancel().catch(() => undefined);
    return response.body ? { text: '', truncated: true } : { text: '', truncated: false };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return { text: text + decoder.decode(), truncated: false };
    bytes += chunk.value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => undefined);
      return { text: text + decoder.decode(chunk.value.subarray(0, chunk.value.byteLength - (bytes - limit))), truncated: true };
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
}

function bodyLimit(options: RequestOptions): number {
  const limit = options.maxBodyBytes ?? defaultMaxBodyBytes;
  if (!(Number.isInteger(limit) && limit > 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: options.provider, message: `maxBodyBytes must be a whole number above zero, got ${String(limit)}` });
  }
  return limit;
}

interface Guard {
  signal: AbortSignal;
  /** Turns anything thrown while the call ran into a ProviderCallError. */
  fail(error: unknown, status?: number): never;
  dispose(): void;
}

function guard(url: string, options: RequestOptions): Guard {
  const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
  if (!(timeoutMs > 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: options.provider, message: `timeoutMs must be above zero, got ${String(timeoutMs)}` });
  }
  const controller = new AbortController();
  let timedOut = false;
  // A timer of our own rather than AbortSignal.timeout, so the message can say which limit fired and
  // the timer is cleared as soon as the body is read.
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const base = { provider: options.provider, url };
  return {
    signal: controller.signal,
    fail(error, status) {
      if (ProviderCallError.isInstance(error)) throw error;
      if (timedOut) {
        throw new ProviderCallError({ ...base, failure: 'timeout', message: `${url} did not answer within ${timeoutMs} ms`, cause: error, ...(status === undefined ? {} : { status }) });
      }
      if (options.signal?.aborted) {
        throw new ProviderCallError({ ...base, failure: 'aborted', message: `call to ${url} aborted by the caller`, cause: options.signal.reason ?? error });
      }
      const code = networkErrorCode(error);
      if (code && timeoutCodes.has(code)) {
        throw new ProviderCallError({ ...base, failure: 'timeout', message: `${url} timed out (${code})`, cause: error });
      }
      const detail = code ?? (error as Error)?.message ?? String(error);
      throw new ProviderCallError({ ...base, failure: 'offline', message: `cannot reach ${url}: ${detail}`, cause: error });
    },
    dispose() {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

async function send(url: string, options: RequestOptions, call: Guard): Promise<Response> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) if (value !== undefined) headers[name] = value;
  const hasBody = options.body !== undefined;
  if (hasBody && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const fetchFunction = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await fetchFunction(url, {
      method: options.method ?? (hasBody ? 'POST' : 'GET'),
      headers,
      ...(hasBody ? { body: JSON.stringify(options.body) } : {}),
      signal: call.signal,
    });
  } catch (error) {
    call.fail(error);
  }
  if (!response.ok) {
    let body = '';
    try {
      body = (await readLimited(response, bodyLimit(options))).text;
    } catch (error) {
      call.fail(error, response.status);
    }
    throw new ProviderCallError({
      provider: options.provider,
      failure: 'http',
      url,
      status: response.status,
      body,
      headers: headersOf(response),
      message: `${url} answered ${response.status}${body ? `: ${excerpt(body)}` : ''}`,
    });
  }
  return response;
}

/**
 * Calls a JSON API and returns the parsed body. Connection refused, a hang past `timeoutMs`, an HTTP
 * error status and a body that is not JSON each become a {@link ProviderCallError} naming the URL.
 * @throws ProviderCallError with `failure` 'http' | 'timeout' | 'offline' | 'aborted' | 'malformed'
 * @example
 * ```ts
 * const models = await requestJson<{ data: { id: string }[] }>('http://127.0.0.1:1234/v1/models', { provider: 'lmstudio', timeoutMs: 5_000 });
 * ```
 */
export async function requestJson<T = unknown>(url: string, options: RequestOptions): Promise<T> {
  const limit = bodyLimit(options);
  const call: Guard = guard(url, options);
  try {
    const response = await send(url, options, call);
    let text: string;
    try {
      const read = await readLimited(response, limit);
      if (read.truncated) {
        const message = `${url} answered ${response.status} with a body over ${limit} bytes (maxBodyBytes); not read`;
        throw new ProviderCallError({ provider: options.provider, failure: 'malformed', url, status: response.status, headers: headersOf(response), message });
      }
      text = read.text;
    } catch (error) {
      call.fail(error, response.status);
    }
    return parseProviderJson<T>(
      text,
      { provider: options.provider, url, status: response.status, headers: headersOf(response) },
      () => `${url} answered ${response.status} with a body that is not JSON: ${excerpt(text, 120) || '(empty)'}`,
    );
  } finally {
    call.dispose();
  }
}

/**
 * Like {@link requestJson}, but undefined where the server has nothing at that URL: a model it does not
 * know (`GET /models/{id}` answering 404), or a route it does not serve (405 from a host without a
 * models list). Other failures throw as in {@link requestJson}.
 * @default missing [404]
 * @throws ProviderCallError
 * @example
 * ```ts
 * const info = await requestOptionalJson<{ max_input_tokens?: number }>(`${baseURL}/models/${model}`, { provider: 'anthropic', missing: [404] });
 * ```
 */
export async function requestOptionalJson<T = unknown>(url: string, options: RequestOptions & { missing?: readonly number[] }): Promise<T | undefined> {
  const { missing = [404], ...requestOptions } = options;
  try {
    return await requestJson<T>(url, requestOptions);
  } catch (error) {
    if (ProviderCallError.isInstance(error) && error.failure === 'http' && error.status !== undefined && missing.includes(error.status)) return undefined;
    throw error;
  }
}

/** A response whose body is still to be read (a stream), and the cleanup that ends its timeout. */
export interface OpenResponse {
  response: Response;
  /**
   * The body's chunks; errors while reading (timeout, abort, dropped connection) arrive as
   * {@link ProviderCallError}, and the timeout is cleared when the body ends.
   */
  body: AsyncIterable<Uint8Array>;
}

/**
 * Calls an API and returns the response with its body unread, for streams (SSE, JSON lines). Errors
 * before the body are as in {@link requestJson}; `timeoutMs` covers the whole stream.
 * @throws ProviderCallError
 */
export async function request(url: string, options: RequestOptions): Promise<OpenResponse> {
  const call: Guard = guard(url, options);
  let response: Response;
  try {
    response = await send(url, options, call);
  } catch (error) {
    call.dispose();
    throw error;
  }
  const stream = response.body;
  async function* body(): AsyncGenerator<Uint8Array> {
    if (!stream) {
      call.dispose();
      return;
    }
    const reader = stream.getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          call.fail(error, response.status);
        }
        if (chunk.done) return;
        yield chunk.value;
      }
    } finally {
      call.dispose();
      reader.releaseLock();
      // A consumer that stops early must not leave the connection open.
      await stream.cancel().catch(() => undefined);
    }
  }
  return { response, body: body() };
}
