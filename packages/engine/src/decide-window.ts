import type { ModelLimits } from '@ctxkit/core';
import type { ManagerParts } from './manager-parts.ts';
import type { ContextManagerOptions } from './manager-types.ts';
import { resolveLimits } from './model-limits.ts';

/** The window a request is measured against: the serving model's limits, its output budget, and the policy's threshold and target. */
export interface WindowDecision {
  readonly limits: ModelLimits;
  readonly maxOutputTokens: number;
  readonly threshold: number;
  readonly target: number;
  /** Why the policy chose this threshold. */
  readonly reason: string;
}

/** The output budget of a request to `model`: the option (a number or a lookup), else the model's own, else unknown (0). */
export function outputBudget(option: ContextManagerOptions['maxOutputTokens'], model: string, limits: ModelLimits): number {
  const configured = typeof option === 'function' ? option(model) : option;
  return configured ?? limits.maxOutputTokens ?? 0;
}

/**
 * The window, threshold and target that apply to a request to `model` now, looked up on every call (a
 * fallback model, a learned window). Emits a `window` event when they differ from the last request's.
 * @throws CtxkitError INVALID_ARGUMENT when nothing knows the model's window
 */
export async function decideWindow(parts: ManagerParts, model: string, signal?: AbortSignal): Promise<WindowDecision> {
  const { options } = parts;
  const limits = await resolveLimits(model, options.contextWindow, parts.providers, parts.learned, signal);
  const maxOutputTokens = outputBudget(options.maxOutputTokens, model, limits);
  const decision = parts.policy.decide({ contextWindow: limits.contextWindow, maxOutputTokens });
  const target = options.target === undefined ? decision.target : Math.floor(decision.threshold * options.target);
  const windowKey = `${model}|${limits.contextWindow}|${maxOutputTokens}`;
  if (windowKey !== parts.memory.lastWindowKey) {
    parts.memory.lastWindowKey = windowKey;
    parts.emit({ type: 'window', model, limits, threshold: decision.threshold, target, reason: decision.reason });
  }
  return { limits, maxOutputTokens, threshold: decision.threshold, target, reason: decision.reason };
}
