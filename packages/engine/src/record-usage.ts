import { CtxkitError } from '@ctxkit/core';
import type { ManagerParts } from './manager-parts.ts';
import type { ContextManager } from './manager-types.ts';

/**
 * Takes the usage the provider reported for the last request: the meter anchors the next measurement on
 * it and calibrates. `messages` defaults to what the last `prepare` returned.
 * @throws CtxkitError INVALID_ARGUMENT for usage without a number of input tokens
 */
export function recordUsage(parts: ManagerParts, report: Parameters<ContextManager['record']>[0]): void {
  const { model, usage, messageCount, messages } = report;
  if (!usage || !(Number.isFinite(usage.inputTokens) && usage.inputTokens >= 0)) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'engine', message: `record needs usage.inputTokens as a number of zero or more, got ${String(usage?.inputTokens)}` });
  }
  const { lastSent } = parts.memory;
  const sent = messages ?? lastSent?.messages;
  parts.meter.record({
    inputTokens: usage.inputTokens,
    messageCount,
    model: model ?? parts.options.model,
    ...(sent ? { messages: sent } : {}),
    ...(lastSent?.tools ? { tools: lastSent.tools } : {}),
    ...(usage.inputIsLowerBound ? { inputIsLowerBound: true } : {}),
  });
}
