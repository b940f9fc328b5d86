import { type Message, memoryStore, safeCutIndex } from '@ctxkit/core';
import { transcriptArbitrary } from '@ctxkit/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tierContext } from './__fixtures__/tier-context.ts';
import { restoredText } from './archive.ts';
import { microcompactTier } from './microcompact-tier.ts';
import { createRestoreHandler } from './restore-handler.ts';

const firstIndex = (messages: readonly Message[]) => (messages[0]?.role === 'system' ? 1 : 0);

describe('microcompaction on generated transcripts', () => {
  it('leaves only stubs that restore to their original, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArbitrary(), fc.integer({ min: 0, max: 3 }), fc.double({ min: 0, max: 1, noNaN: true }), async (messages, keepRecent, cut) => {
        const protectedStart = Math.max(firstIndex(messages), safeCutIndex(messages, Math.floor(cut * messages.length)));
        const context = tierContext({ messages, protectedStart });
        const outcome = await microcompactTier({ keepRecent, minSavingsTokens: 0, minResultTokens: 0 }).apply(messages, context);
        if (outcome.status !== 'applied') return;
        const restore = createRestoreHandler(context.store);
        for (const [index, message] of outcome.messages.entries()) {
          const handle = message.meta?.ctxkit?.handle;
          if (handle === undefined) continue;
          const original = messages[index]!;
          expect(original.role).toBe('tool');
          expect(await restore({ handle })).toBe(restoredText(original.content));
          if (typeof original.content === 'string') expect(await restore({ handle })).toBe(original.content);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never gives one handle to two different results as the run grows', async () => {
    let secondCompactions = 0;
    await fc.assert(
      fc.asyncProperty(transcriptArbitrary({ maxTurns: 10 }), fc.double({ min: 0.2, max: 0.8, noNaN: true }), async (messages, split) => {
        const store = memoryStore();
        const tier = microcompactTier({ keepRecent: 1, minSavingsTokens: 0, minResultTokens: 0 });
        const originals = new Map(messages.flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message.content] as const] : [])));
        const owner = new Map<string, string>();
        const cut = safeCutIndex(messages, Math.floor(split * messages.length));
        let transcript = messages.slice(0, cut);
        for (const step of ['first half', 'whole run']) {
          // The run goes on from the compacted transcript (stubs keep every message in place).
          if (step === 'whole run') transcript = [...transcript, ...messages.slice(cut)];
          const outcome = await tier.apply(transcript, tierContext({ messages: transcript, protectedStart: Math.max(firstIndex(transcript), transcript.length - 2), store }));
          if (outcome.status !== 'applied') continue;
          if (step === 'whole run') secondCompactions += 1;
          transcript = outcome.messages;
          for (const message of transcript) {
            const handle = message.meta?.ctxkit?.handle;
            if (handle === undefined || message.role !== 'tool') continue;
            expect(owner.get(handle) ?? message.toolCallId).toBe(message.toolCallId);
            owner.set(handle, message.toolCallId);
            expect(await createRestoreHandler(store)(handle)).toBe(restoredText(originals.get(message.toolCallId)!));
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(secondCompactions).toBeGreaterThan(50);
  });
});
