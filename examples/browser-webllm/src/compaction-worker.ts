// The web worker: the manager, its tiers and the on-device model run here, so the page stays responsive
// while the model loads and writes. The page sends `{ type: 'run', engine }` and hears every event.
import { type EngineChoice, runCompaction } from './run-compaction.ts';

/** What the worker tells the page. */
export type WorkerMessage = { type: 'event'; event: unknown } | { type: 'done'; run: Awaited<ReturnType<typeof runCompaction>> } | { type: 'error'; message: string };

const post = (message: WorkerMessage) => (self as unknown as { postMessage(message: WorkerMessage): void }).postMessage(message);

self.addEventListener('message', (message: MessageEvent<{ type: 'run'; engine: EngineChoice }>) => {
  if (message.data?.type !== 'run') return;
  runCompaction(message.data.engine, (event) => post({ type: 'event', event }))
    .then((run) => post({ type: 'done', run }))
    .catch((error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
});
