import type { Message } from '@ctxkit/core';
import { createContextManager, type ManagerEvent, type PrepareReport, planSource, taskSource } from '@ctxkit/engine';
import { imageStripTier } from '@ctxkit/tier-images';
import { microcompactTier } from '@ctxkit/tier-microcompact';
import { trimTier } from '@ctxkit/tier-trim';
import { type WebllmTierProgress, webllmTier } from '@ctxkit/tier-webllm';
import { createEngineDouble } from '@ctxkit/tier-webllm/test';
import { tiktokenCounter } from '@ctxkit/tokens';
import { sampleTranscript } from './sample-transcript.ts';

/** Which engine the on-device tier uses: WebLLM itself, or the stand-in that answers without a GPU. */
export type EngineChoice = 'webllm' | 'double';

/** What the page shows: every manager event as it happens, then the report. */
export interface CompactionRun {
  engine: EngineChoice;
  messagesBefore: number;
  messagesAfter: number;
  report: PrepareReport;
  /** The message that stands for the folded span, when one was written. */
  summary?: string;
}

/**
 * Runs one `prepare` on the long sample transcript with the browser pipeline: microcompaction, image
 * stripping, the on-device tier, trim. No node-only plugin is registered (no edited-files source).
 */
export async function runCompaction(engine: EngineChoice, onEvent: (event: ManagerEvent | { type: 'webllm-progress'; progress: WebllmTierProgress }) => void): Promise<CompactionRun> {
  const messages = sampleTranscript();
  const onDevice = webllmTier({
    ...(engine === 'double'
      ? {
          // The stand-in takes a moment per answer, as a model would, so the progress can be seen.
          engine: createEngineDouble({ latencyMs: 120 }),
          timeoutMs: 10_000,
        }
      : {}),
    onProgress: (progress) => onEvent({ type: 'webllm-progress', progress }),
  });
  const manager = createContextManager({
    model: 'agent-model',
    contextWindow: 32_000,
    maxOutputTokens: 4_096,
    plugins: [microcompactTier(), imageStripTier(), onDevice, trimTier(), tiktokenCounter('o200k_base'), taskSource(), planSource()],
    onEvent,
  });
  // Load the model before the first compaction needs it (a real first load downloads hundreds of MB);
  // on a device without WebGPU this returns at once with the reason, and the tier skips with it.
  if (engine === 'webllm') await onDevice.load();
  const { messages: prepared, report } = await manager.prepare(messages);
  const summary = prepared.find((message: Message) => message.meta?.ctxkit?.kind === 'summary' || message.meta?.ctxkit?.kind === 'note');
  return {
    engine,
    messagesBefore: messages.length,
    messagesAfter: prepared.length,
    report,
    ...(summary ? { summary: typeof summary.content === 'string' ? summary.content : JSON.stringify(summary.content) } : {}),
  };
}
