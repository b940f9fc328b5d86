import { CtxkitError, type Message } from '@ctxkit/core';
import type { CounterKind } from './calibration.ts';
import { messageCost } from './message-cost.ts';
import { counterFor, counterKind, modelKey } from './meter-counter.ts';
import { argumentError, type MeterState, type ToolsEntry, transcript } from './meter-state.ts';
import type { MeasureOptions } from './meter-types.ts';

/** A message's local count (framing included, no calibration), cached per message object and counter. */
export function messageTokens(state: MeterState, message: Message, index: number, kind: CounterKind): number {
  const key = message as unknown as object;
  let entry = typeof key === 'object' && key !== null ? state.messageCache.get(key) : undefined;
  const record = message as unknown as Record<string, unknown>;
  if (!entry || entry.role !== record.role || entry.content !== record.content || entry.toolCalls !== record.toolCalls || entry.toolName !== record.toolName) {
    entry = { role: record?.role, content: record?.content, toolCalls: record?.toolCalls, toolName: record?.toolName };
    const cost = messageCost(message, index, counterFor(state, kind), state.framing);
    entry[kind] = cost;
    if (typeof key === 'object' && key !== null) state.messageCache.set(key, entry);
    return cost;
  }
  let cost = entry[kind];
  if (cost === undefined) {
    cost = messageCost(message, index, counterFor(state, kind), state.framing);
    entry[kind] = cost;
  }
  return cost;
}

function toolsJson(tools: readonly unknown[]): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(tools);
  } catch (cause) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message: `tools could not be turned into JSON: ${(cause as Error).message}`, cause });
  }
  if (json === undefined) throw argumentError('tools must be JSON (an array of tool definitions), got a value JSON.stringify drops');
  return json;
}

function toolsEntry(state: MeterState, tools: readonly unknown[]): ToolsEntry {
  const isObject = typeof tools === 'object';
  let entry = isObject ? state.toolsCache.get(tools) : undefined;
  if (entry) return entry;
  const json = toolsJson(tools);
  entry = state.toolsByJson.get(json);
  if (!entry) {
    entry = { json };
    // A handful of distinct tool lists is normal (per-tab overrides); more means a new array each step.
    if (state.toolsByJson.size >= 16) state.toolsByJson = new Map();
    state.toolsByJson.set(json, entry);
  }
  if (isObject) state.toolsCache.set(tools, entry);
  return entry;
}

/** The local count of the tool definitions' JSON, cached per array and per JSON text. */
export function toolsTokens(state: MeterState, tools: readonly unknown[] | undefined, kind: CounterKind): number {
  if (tools === undefined || tools === null) return 0;
  const entry = toolsEntry(state, tools);
  let cost = entry[kind];
  if (cost === undefined) {
    cost = entry.json === '[]' ? 0 : counterFor(state, kind)(entry.json);
    entry[kind] = cost;
  }
  return cost;
}

/** The system message, when the transcript opens with one. */
export function systemOf(messages: readonly Message[]): Message | undefined {
  return messages[0]?.role === 'system' ? messages[0] : undefined;
}

/** The floor's local count: request framing, the system message and the tool definitions. */
export function floorTokens(state: MeterState, system: Message | undefined, tools: readonly unknown[] | undefined, kind: CounterKind): number {
  return state.requestOverhead + (system ? messageTokens(state, system, 0, kind) : 0) + toolsTokens(state, tools, kind);
}

/** The whole transcript's local count (floor and growing part), with no anchor and no calibration. */
export function localTotal(state: MeterState, messages: readonly Message[], kind: CounterKind, tools: readonly unknown[] | undefined): number {
  let total = floorTokens(state, systemOf(messages), tools, kind);
  messages.forEach((message, index) => {
    if (index > 0 || message?.role !== 'system') total += messageTokens(state, message, index, kind);
  });
  return total;
}

/** `meter.countMessages`: the calibrated local count of a whole transcript. */
export function countMessages(state: MeterState, messages: readonly Message[], options: MeasureOptions = {}): number {
  transcript(messages, 'countMessages');
  const kind = counterKind(state, options.exact, 'countMessages');
  return Math.ceil(state.calibration.ratio(modelKey(options.model), kind) * localTotal(state, messages, kind, options.tools));
}

/** `meter.countText`: the calibrated local count of a piece of text. */
export function countText(state: MeterState, text: string, options: Omit<MeasureOptions, 'tools'> = {}): number {
  if (typeof text !== 'string') throw argumentError(`countText: text must be a string, got ${text === null ? 'null' : typeof text}`);
  const kind = counterKind(state, options.exact, 'countText');
  return Math.ceil(state.calibration.ratio(modelKey(options.model), kind) * counterFor(state, kind)(text));
}
