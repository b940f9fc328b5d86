import { CtxkitError } from '@ctxkit/core';

/**
 * The API key to send: the one given, else the first environment variable set (where there is an
 * environment). Read at call time, so a provider made without a key still resolves windows and
 * classifies errors.
 * @throws CtxkitError INVALID_ARGUMENT naming the option and the variables when none is set
 * @example apiKeyFrom(options.apiKey, ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'], 'gemini')
 */
export function apiKeyFrom(given: string | undefined, variables: string | readonly string[], provider: string): string {
  if (given) return given;
  const names = typeof variables === 'string' ? [variables] : variables;
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  for (const name of names) {
    const fromEnvironment = environment?.[name];
    if (fromEnvironment) return fromEnvironment;
  }
  const [first, ...others] = names;
  const named = others.length > 0 ? `${first} (or ${others.join(', ')})` : String(first);
  throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: provider, message: `no API key: pass apiKey or set ${named}` });
}

/** A base URL without its trailing slashes, so paths join cleanly. */
export function trimBaseURL(url: string): string {
  return url.replace(/\/+$/, '');
}
