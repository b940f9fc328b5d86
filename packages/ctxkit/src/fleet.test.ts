import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { textOf } from '@ctxkit/core';
import { redisStore } from '@ctxkit/store-redis';
import { type RedisTestServer, redisMissingMessage, redisServerPath, startRedisServer } from '@ctxkit/testkit';
import { createRestoreHandler } from '@ctxkit/tier-microcompact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetTranscript } from './__fixtures__/fleet-transcript.ts';
import { createCtxkit } from './preset.ts';

const installed = redisServerPath() !== undefined;
if (!installed) console.warn(`ctxkit fleet tests: ${redisMissingMessage}`);

/** Runs a script of __fixtures__ in a process of its own; resolves with its stdout. */
function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@ctxkit/source', join(import.meta.dirname, '__fixtures__', script), ...args], {
      cwd: join(import.meta.dirname, '..'),
      // Plain output whatever the runner's colour settings (console.log colours booleans under FORCE_COLOR).
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'FORCE_COLOR')), NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${script} exited ${code}: ${stderr}`))));
  });
}

/** Runs one job in a worker process of its own (fresh memory: all it knows comes from Redis). */
async function worker<T>(job: Record<string, unknown>): Promise<T> {
  return JSON.parse(await runScript('fleet-worker.ts', [JSON.stringify(job)])) as T;
}

type Archived = { handle: string; original: string }[];

describe.skipIf(!installed)('a fleet sharing one redis-server (127.0.0.1)', () => {
  let server: RedisTestServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs the README example of @ctxkit/store-redis as written', async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'store-redis', 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    const fixture = readFileSync(join(import.meta.dirname, '__fixtures__', 'store-redis-readme.ts'), 'utf8');
    expect(fixture.slice(fixture.indexOf('\n') + 1)).toBe(example);
    const printed = await runScript('store-redis-readme.ts', [], { REDIS_URL: server.url });
    const comments = [...example!.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]);
    expect(printed.trimEnd().split('\n')).toEqual(comments);
  }, 60_000);

  it('restores in one process, byte for byte, what another process archived', async () => {
    const archived = await worker<Archived>({ action: 'archive', url: server.url, conversationId: 'ticket-1' });
    expect(archived.length).toBeGreaterThan(3);
    const restored = await worker<string[]>({ action: 'restore', url: server.url, conversationId: 'ticket-1', handles: archived.map((entry) => entry.handle) });
    expect(restored).toEqual(archived.map((entry) => entry.original));
  }, 60_000);

  it('keeps two conversations with the same handles apart', async () => {
    const [left, right] = await Promise.all([
      worker<Archived>({ action: 'archive', url: server.url, conversationId: 'conversation-left' }),
      worker<Archived>({ action: 'archive', url: server.url, conversationId: 'conversation-right' }),
    ]);
    expect(left.map((entry) => entry.handle)).toEqual(right.map((entry) => entry.handle));
    const handles = left.map((entry) => entry.handle);
    const [fromLeft, fromRight, unscoped] = await Promise.all([
      worker<string[]>({ action: 'restore', url: server.url, conversationId: 'conversation-left', handles }),
      worker<string[]>({ action: 'restore', url: server.url, conversationId: 'conversation-right', handles }),
      worker<string[]>({ action: 'restore', url: server.url, handles }),
    ]);
    expect(fromLeft).toEqual(left.map((entry) => entry.original));
    expect(fromRight).toEqual(right.map((entry) => entry.original));
    expect(fromLeft.every((text) => text.includes('conversation-left') && !text.includes('conversation-right'))).toBe(true);
    expect(unscoped.every((text) => text.startsWith('No archived tool result'))).toBe(true);
  }, 60_000);

  it('uses in the next process a window the previous one learned', async () => {
    const learned = await worker<{ contextWindow: number; source: string }>({ action: 'learn', url: server.url });
    expect(learned).toMatchObject({ contextWindow: 100_000, source: 'learned' });
    const limits = await worker<{ contextWindow: number; source: string }>({ action: 'limits', url: server.url });
    expect(limits).toMatchObject({ contextWindow: 100_000, source: 'learned' });
  }, 60_000);

  it('still fits the request while the server is stopped, and loses nothing archived once it restarts', async () => {
    const store = redisStore({ url: server.url, base: 'outage', timeoutMs: 500 });
    const conversationId = 'outage-run';
    // Every old result archived, as bare stubs (nothing for trim to fold), so the outage meets archives from before and after it.
    const manager = createCtxkit({
      model: 'm',
      contextWindow: 16_000,
      maxOutputTokens: 2_000,
      store,
      conversationId,
      editedFiles: false,
      storeTimeoutMs: 1_000,
      microcompact: { archive: 'all', stubDetail: false },
    });
    const restore = createRestoreHandler(store, { conversationId });
    try {
      const history = fleetTranscript(conversationId, 14);
      const first = await manager.prepare(history);
      const microcompact = (report: typeof first.report) => report.tiers.find((tier) => tier.id === 'microcompact');
      expect(microcompact(first.report)?.status).toBe('applied');
      const stubs = first.messages.flatMap((message) => (message.role === 'tool' && message.meta?.ctxkit?.handle ? [{ handle: message.meta.ctxkit.handle, toolCallId: message.toolCallId }] : []));
      const originalOf = (toolCallId: string) => textOf(history.find((message) => message.role === 'tool' && message.toolCallId === toolCallId)!.content);

      await server.stop();
      const longer = fleetTranscript(conversationId, 20);
      const during = await manager.prepare(longer);
      expect(during.report.after).toBeLessThanOrEqual(during.report.threshold);
      expect(microcompact(during.report)).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^could not read the archive store, transcript unchanged: .*(unreachable|timed out)/) });
      expect(during.report.tiers.find((tier) => tier.id === 'trim')?.status).toBe('applied');
      // No stub in the request names a handle the store does not hold.
      expect(during.messages.some((message) => message.meta?.ctxkit?.kind === 'stub')).toBe(false);

      await server.start();
      let restored: string[] = [];
      for (let attempt = 0; attempt < 100; attempt += 1) {
        restored = await Promise.all(stubs.map(({ handle }) => restore({ handle }).catch(() => '')));
        if (restored.every((text) => text !== '')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(restored).toEqual(stubs.map(({ toolCallId }) => originalOf(toolCallId)));

      const after = await manager.prepare(longer);
      expect(microcompact(after.report)?.status).toBe('applied');
      const handles = after.messages.flatMap((message) => (message.role === 'tool' && message.meta?.ctxkit?.handle ? [message.meta.ctxkit.handle] : []));
      expect(new Set(handles).size).toBe(handles.length);
      // Results archived before the outage keep their handles; the new ones get fresh ones.
      for (const { handle } of stubs) expect(handles).toContain(handle);
      for (const handle of handles) expect(await restore({ handle })).not.toMatch(/^No archived tool result/);
    } finally {
      await store.close();
    }
  }, 60_000);
});
