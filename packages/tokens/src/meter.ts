import { breakdown } from './meter-breakdown.ts';
import { isExactAvailable, loadTokenizer, modelKey } from './meter-counter.ts';
import { countMessages, countText } from './meter-counts.ts';
import { exceeds } from './meter-exceeds.ts';
import { measure } from './meter-measure.ts';
import { recordUsage } from './meter-record.ts';
import { createMeterState } from './meter-state.ts';
import type { Meter, MeterOptions } from './meter-types.ts';

/**
 * A meter: anchors on the provider's reported input tokens, counts only messages added since, confirms
 * an over-threshold estimate exactly, calibrates per model, and reports the fixed floor apart from the
 * growing part.
 * @throws CtxkitError INVALID_ARGUMENT for a bad option
 * @example
 * ```ts
 * const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
 * const step = await meter.exceeds(messages, 100_000, { tools, model: 'gpt-4o' });
 * if (step.exceeds) compact();              // never on an unconfirmed estimate
 * const response = await callModel(messages);
 * meter.record({ inputTokens: response.usage.prompt_tokens, messageCount: messages.length, model: 'gpt-4o' });
 * messages = [...messages, reply, ...toolResults];
 * meter.measure(messages, { tools, model: 'gpt-4o' }); // the report + the three new messages only
 * ```
 */
export function createMeter(options: MeterOptions = {}): Meter {
  const state = createMeterState(options);
  return {
    measure: (messages, measureOptions) => measure(state, messages, measureOptions),
    exceeds: (messages, threshold, measureOptions) => exceeds(state, messages, threshold, measureOptions),
    record: (report) => recordUsage(state, report),
    countMessages: (messages, measureOptions) => countMessages(state, messages, measureOptions),
    countText: (text, measureOptions) => countText(state, text, measureOptions),
    breakdown: (messages, measureOptions) => breakdown(state, messages, measureOptions),
    ready: () => loadTokenizer(state),
    reset() {
      state.anchor = undefined;
    },
    calibration: (model, kind) => state.calibration.ratio(modelKey(model), kind ?? (state.tokenizer !== undefined && isExactAvailable(state) ? 'exact' : 'estimate')),
    calibrations: () => state.calibration.snapshot(),
  };
}
