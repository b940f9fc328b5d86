import { CtxkitError, type ModelLimits, type ProviderPlugin } from '@ctxkit/core';

/** A fixed window, fixed limits, or a lookup per model (sync or async). */
export type ContextWindowOption = number | ModelLimits | ((model: string) => number | ModelLimits | undefined | Promise<number | ModelLimits | undefined>);

function asLimits(value: number | ModelLimits): ModelLimits {
  return typeof value === 'number' ? { contextWindow: value, source: 'configured' } : value;
}

/**
 * The provider serving a model id: `openai:gpt-4o` picks the provider registered as `openai`; a bare id
 * goes to the only registered provider. Model ids may contain `:` themselves (`ollama:qwen3:8b`).
 */
export function providerFor(model: string, providers: readonly ProviderPlugin[]): { provider: ProviderPlugin; model: string } | undefined {
  const colon = model.indexOf(':');
  if (colon > 0) {
    const provider = providers.find((candidate) => candidate.id === model.slice(0, colon));
    if (provider) return { provider, model: model.slice(colon + 1) };
  }
  return providers.length === 1 ? { provider: providers[0]!, model } : undefined;
}

/**
 * The limits of the model serving this request, looked up on every call: the option when given,
 * else the provider that serves the model, then lowered by a window learned from an overflow error.
 * @throws CtxkitError INVALID_ARGUMENT when nothing knows the model's window
 */
export async function resolveLimits(
  model: string,
  option: ContextWindowOption | undefined,
  providers: readonly ProviderPlugin[],
  learned: ReadonlyMap<string, number>,
  signal?: AbortSignal,
): Promise<ModelLimits> {
  let limits: ModelLimits | undefined;
  if (typeof option === 'function') {
    const value = await option(model);
    if (value !== undefined) limits = asLimits(value);
  } else if (option !== undefined) {
    limits = asLimits(option);
  }
  if (!limits) {
    const serving = providerFor(model, providers);
    if (serving) limits = await serving.provider.contextWindow(serving.model, signal ? { signal } : {});
  }
  if (!limits) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'engine',
      message: `no context window known for model ${JSON.stringify(model)}: pass contextWindow, or register the provider that serves it (as "provider:model")`,
    });
  }
  if (!(Number.isFinite(limits.contextWindow) && limits.contextWindow > 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'engine', message: `the context window for ${JSON.stringify(model)} is ${String(limits.contextWindow)}; expected a positive number` });
  }
  const lower = learned.get(model);
  return lower !== undefined && lower < limits.contextWindow ? { ...limits, contextWindow: lower, source: 'learned' } : limits;
}
