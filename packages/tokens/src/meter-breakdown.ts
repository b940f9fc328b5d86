import type { Message } from '@ctxkit/core';
import { counterKind, modelKey } from './meter-counter.ts';
import { localTotal, messageTokens, systemOf, toolsTokens } from './meter-counts.ts';
import { type MeterState, transcript } from './meter-state.ts';
import type { Breakdown, MeasureOptions } from './meter-types.ts';

function emptyRoles(): Breakdown['roles'] {
  return {
    system: { messages: 0, tokens: 0 },
    user: { messages: 0, tokens: 0 },
    assistant: { messages: 0, tokens: 0 },
    tool: { messages: 0, tokens: 0 },
  };
}

/** `meter.breakdown`: tokens per role and for the floor's parts, from calibrated local counts. */
export function breakdown(state: MeterState, messages: readonly Message[], options: MeasureOptions = {}): Breakdown {
  transcript(messages, 'breakdown');
  const kind = counterKind(state, options.exact, 'breakdown');
  const ratio = state.calibration.ratio(modelKey(options.model), kind);
  const scaled = (tokens: number) => Math.ceil(ratio * tokens);
  const roles = emptyRoles();
  messages.forEach((message, index) => {
    const tokens = messageTokens(state, message, index, kind);
    const role = roles[message.role];
    role.messages += 1;
    role.tokens += tokens;
  });
  const system = systemOf(messages);
  const floor = {
    system: scaled(system ? messageTokens(state, system, 0, kind) : 0),
    tools: scaled(toolsTokens(state, options.tools, kind)),
    request: scaled(state.requestOverhead),
  };
  for (const role of Object.values(roles)) role.tokens = scaled(role.tokens);
  return { total: scaled(localTotal(state, messages, kind, options.tools)), floor, roles, source: kind };
}
