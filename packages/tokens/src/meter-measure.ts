import type { Message } from '@ctxkit/core';
import type { CounterKind } from './calibration.ts';
import { counterKind, modelKey } from './meter-counter.ts';
import { floorTokens, systemOf } from './meter-counts.ts';
import { growingBetween, growingUpTo, syncLedger } from './meter-ledger.ts';
import { type Anchor, type MeterState, transcript } from './meter-state.ts';
import type { MeasureOptions, Measurement } from './meter-types.ts';

type MeasurementDetail = Omit<Measurement, 'total' | 'floor' | 'growing' | 'model'>;

function buildMeasurement(total: number, floor: number, detail: MeasurementDetail, model: string | undefined): Measurement {
  const cappedFloor = Math.min(floor, total);
  return { total, floor: cappedFloor, growing: total - cappedFloor, ...detail, ...(model === undefined ? {} : { model }) };
}

function isUsableAnchor(anchor: Anchor | undefined, messages: readonly Message[], model: string | undefined): anchor is Anchor {
  return anchor !== undefined && anchor.messageCount <= messages.length && (model === undefined || anchor.model === undefined || anchor.model === model);
}

/** The provider's figure plus the calibrated local count of what changed since: the tail and any change of the floor. */
function anchoredMeasurement(state: MeterState, anchor: Anchor, messages: readonly Message[], floor: number, kind: CounterKind, model: string | undefined): Measurement {
  const ratio = state.calibration.ratio(modelKey(model), kind);
  const tail = growingBetween(state, kind, anchor.messageCount, messages.length);
  const floorChange = floor - floorTokens(state, anchor.system, anchor.tools, kind);
  const local = tail + floorChange;
  const unanchoredMessages = messages.length - anchor.messageCount;
  return buildMeasurement(
    Math.max(0, anchor.reported + Math.ceil(ratio * local)),
    Math.ceil(ratio * floor),
    {
      source: 'reported',
      confirmed: kind === 'exact' || (unanchoredMessages === 0 && floorChange === 0),
      reportedTokens: anchor.reported,
      unanchoredMessages,
      calibration: ratio,
    },
    model,
  );
}

/**
 * `meter.measure`: the last provider report plus a local count of only the messages added since, or a
 * local count of everything when there is no usable report.
 * @throws CtxkitError INVALID_ARGUMENT for a non-array; TOKENIZER_FAILED for `exact: true` without a loaded tokenizer
 */
export function measure(state: MeterState, messages: readonly Message[], options: MeasureOptions = {}): Measurement {
  transcript(messages, 'measure');
  const kind = counterKind(state, options.exact, 'measure');
  const { tools, model } = options;
  syncLedger(state, messages);
  state.lastTools = tools;
  const floor = floorTokens(state, systemOf(messages), tools, kind);
  if (isUsableAnchor(state.anchor, messages, model)) return anchoredMeasurement(state, state.anchor, messages, floor, kind, model);
  const ratio = state.calibration.ratio(modelKey(model), kind);
  const local = floor + growingUpTo(state, kind, messages.length);
  return buildMeasurement(Math.ceil(ratio * local), Math.ceil(ratio * floor), { source: kind, confirmed: kind === 'exact', unanchoredMessages: messages.length, calibration: ratio }, model);
}
