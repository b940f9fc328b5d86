import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Workspace packages resolve to their sources through the `@ctxkit/source` export condition, so the
// page needs no build of the packages first.
const conditions = ['@ctxkit/source', 'module', 'browser', 'development|production'];

export default defineConfig({
  resolve: {
    conditions,
    // The engine's edited-files source imports these lazily; the page never registers it.
    alias: [{ find: /^node:(?:fs\/promises|path)$/, replacement: fileURLToPath(new URL('./src/node-builtins.ts', import.meta.url)) }],
  },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    // WebLLM (about 6 MB) and the tokenizer ranks are chunks of their own, loaded only when used.
    chunkSizeWarningLimit: 8_000,
    // The worker build nests inside the page's, so rolldown's timing report is noise on a shared machine.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
