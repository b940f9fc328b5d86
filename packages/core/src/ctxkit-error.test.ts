import { describe, expect, it } from 'vitest';
import { CtxkitError } from './ctxkit-error.ts';

describe('CtxkitError', () => {
  it('prefixes the message with its source and keeps code, cause and details', () => {
    const cause = new Error('disk full');
    const error = new CtxkitError({ code: 'STORE_ERROR', source: 'tier-microcompact', message: 'could not archive r7', cause, details: { handle: 'r7' } });
    expect(error.message).toBe('[ctxkit:tier-microcompact] could not archive r7');
    expect(error.code).toBe('STORE_ERROR');
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ handle: 'r7' });
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across two loaded copies of the package, where instanceof fails', async () => {
    // A second module instance stands in for a duplicate install of @ctxkit/core.
    const specifier = './ctxkit-error.ts?duplicate-install';
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import('./ctxkit-error.ts');
    expect(copy.CtxkitError).not.toBe(CtxkitError);
    const foreign = new copy.CtxkitError({ code: 'INVALID_ARGUMENT', message: 'x' });
    expect(foreign instanceof CtxkitError).toBe(false);
    expect(CtxkitError.isInstance(foreign)).toBe(true);
    expect(CtxkitError.isInstance(foreign, 'INVALID_ARGUMENT')).toBe(true);
    expect(CtxkitError.isInstance(foreign, 'TIMEOUT')).toBe(false);
  });

  it('rejects look-alikes that are not ctxkit errors', () => {
    expect(CtxkitError.isInstance(new Error('[ctxkit:core] x'))).toBe(false);
    expect(CtxkitError.isInstance({ code: 'INVALID_ARGUMENT', name: 'CtxkitError' })).toBe(false);
    expect(CtxkitError.isInstance(null)).toBe(false);
  });
});
