import type { Message, StorePlugin, SummarizerPlugin, ThresholdPolicyPlugin } from '@ctxkit/core';
import type { ContextManager, PrepareReport } from '@ctxkit/engine';
import { compactionTarget } from '@ctxkit/threshold';
import type { TiktokenEncoding } from '@ctxkit/tokens';
import { createCtxkit } from '../preset.ts';

/** A threshold policy that compacts above a fixed number of tokens: the replays' common budget. */
export function fixedTriggerPolicy(triggerTokens: number): ThresholdPolicyPlugin<'fixed-trigger'> {
  return {
    specificationVersion: 'v1',
    kind: 'threshold-policy',
    id: 'fixed-trigger',
    decide: () => ({ threshold: triggerTokens, target: compactionTarget(triggerTokens, 0.6), reason: `the replay's common trigger, ${triggerTokens} tokens` }),
  };
}

/** Options of the ctxkit policy in a replay. */
export interface CtxkitReplayOptions {
  window: number;
  maxOutputTokens: number;
  triggerTokens: number | undefined;
  /** The active model's summarizer; without one tier 0 skips and trim writes a factual note. */
  summarizer?: SummarizerPlugin;
  store: StorePlugin;
  encoding: TiktokenEncoding;
}

/** ctxkit's default preset as an agent loop drives it: prepare, send, record the usage, recover on an overflow. */
export function createCtxkitReplay(options: CtxkitReplayOptions): { manager: ContextManager; prepare(history: readonly Message[]): Promise<{ request: readonly Message[]; report: PrepareReport }> } {
  const manager = createCtxkit({
    model: 'simulated',
    contextWindow: options.window,
    maxOutputTokens: options.maxOutputTokens,
    ...(options.summarizer ? { summarizer: options.summarizer } : {}),
    store: options.store,
    editedFiles: false,
    encoding: options.encoding,
    ...(options.triggerTokens === undefined ? {} : { policy: fixedTriggerPolicy(options.triggerTokens) }),
  });
  return {
    manager,
    async prepare(history) {
      const { messages, report } = await manager.prepare(history);
      return { request: messages, report };
    },
  };
}
