import { CtxkitError } from '@ctxkit/core';

/**
 * The API key to send: the one given, else the environment variable (where there is an environment).
 * Read at call time, so a provider made without a key still resolves windows and classifies errors.
 * @throws CtxkitError INVALID_ARGUMENT naming the option and the variable when neither is set
 */
export function apiKeyFrom(given: string | undefined, variable: string, provider: string): string {
  if (given) return given;
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const fromEnvironment = environment?.[variable];
  if (fromEnvironment) return fromEnvironment;
  throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: provider, message: `no API key: pass apiKey or set ${variable}` });
}

/** A base URL without its trailing slashes, so paths join cleanly. */
export function trimBaseURL(url: string): string {
  return url.replace(/\/+$/, '');
}
