// Loaded with `node --import`: the process resolves `vega` and `vega-lite` as a project that never installed
// ctxkit's optional peers does, with Node's own ERR_MODULE_NOT_FOUND.
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'vega' || specifier === 'vega-lite') {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
