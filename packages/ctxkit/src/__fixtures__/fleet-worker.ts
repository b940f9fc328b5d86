// A worker of a fleet, run as its own process by fleet.test.ts: archives, restores or learns through one
// Redis, and prints what it did as JSON on stdout.
import { openaiProvider } from '@ctxkit/provider-openai';
import { redisStore } from '@ctxkit/store-redis';
import { createRestoreHandler } from '@ctxkit/tier-microcompact';
import { createCtxkit } from '../preset.ts';
import { fleetTranscript } from './fleet-transcript.ts';

interface Job {
  action: 'archive' | 'restore' | 'learn' | 'limits';
  url: string;
  conversationId?: string;
  handles?: string[];
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const store = redisStore({ url: job.url, base: 'fleet-test' });
const out = (value: unknown) => process.stdout.write(JSON.stringify(value));
try {
  if (job.action === 'archive') {
    const conversationId = job.conversationId!;
    const input = fleetTranscript(conversationId);
    // Every old result archived as a bare stub, not just enough for the target: the test is about the store, so more handles.
    const manager = createCtxkit({ model: 'm', contextWindow: 16_000, maxOutputTokens: 2_000, store, conversationId, editedFiles: false, microcompact: { archive: 'all', stubDetail: false } });
    const { messages } = await manager.prepare(input);
    const originals = new Map(input.flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message.content] as const] : [])));
    out(messages.flatMap((message) => (message.role === 'tool' && message.meta?.ctxkit?.handle ? [{ handle: message.meta.ctxkit.handle, original: originals.get(message.toolCallId) }] : [])));
  } else if (job.action === 'restore') {
    const restore = createRestoreHandler(store, job.conversationId === undefined ? {} : { conversationId: job.conversationId });
    const restored: string[] = [];
    for (const handle of job.handles ?? []) restored.push(await restore({ handle }));
    out(restored);
  } else if (job.action === 'learn') {
    // What the provider does on an overflow error that states the limit: learn the window, in the shared store.
    out(await openaiProvider({ store, apiKey: 'unused' }).windows.learn('gpt-4o', { kind: 'context_overflow', limitTokens: 100_000 }));
  } else {
    const manager = createCtxkit({ model: 'openai:gpt-4o', plugins: [openaiProvider({ store, apiKey: 'unused' })], store, conversationId: 'next-process', editedFiles: false });
    out((await manager.limitsFor()).limits);
  }
} finally {
  await store.close();
}
