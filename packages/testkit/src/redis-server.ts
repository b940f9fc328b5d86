import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CtxkitError } from '@ctxkit/core';

/** Said by tests that skip because Debian's `redis-server` is not installed (CI installs it). */
export const redisMissingMessage = 'skipped: redis-server is not installed (apt-get install redis-server; .ci/run installs it)';

/** The path of the `redis-server` binary, or undefined where it is not installed. */
export function redisServerPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.status === 0 ? found.stdout.trim() : '';
  return path === '' ? undefined : path;
}

/** A real `redis-server` on 127.0.0.1 that a test starts, stops and restarts. */
export interface RedisTestServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (it saves its append-only file first), keeping its data folder for a restart. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data: what a fleet sees after a Redis restart. */
  start(): Promise<void>;
  /** Stops it and deletes its data folder. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** Options for {@link startRedisServer}. */
export interface RedisTestServerOptions {
  /**
   * When the append-only file is synced: `always` (every write, so a stop and restart keeps everything),
   * or `everysec`, Redis's own default, for benchmarks that should see a server as deployed.
   * @default 'always'
   */
  appendfsync?: 'always' | 'everysec';
}

/**
 * Starts Debian's `redis-server` on a free port of 127.0.0.1 (never another address), with its data in a
 * fresh temporary folder and an append-only file (synced on every write by default), so a restart keeps
 * everything written. Stop it with `close()` (and stop every server a test file started, also when a test fails).
 * @throws CtxkitError NOT_FOUND when redis-server is not installed, TIMEOUT when it does not answer in 10 s
 * @example
 * ```ts
 * const redis = await startRedisServer();
 * const store = redisStore({ url: redis.url });
 * await redis.close();
 * ```
 */
export async function startRedisServer(options: RedisTestServerOptions = {}): Promise<RedisTestServer> {
  const binary = redisServerPath();
  if (!binary) throw new CtxkitError({ code: 'NOT_FOUND', source: 'testkit', message: redisMissingMessage });
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ctxkit-redis-'));
  let child: ChildProcess | undefined;

  const start = async () => {
    if (child) return;
    const started = spawn(
      binary,
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        options.appendfsync ?? 'always',
        '--save',
        '',
        '--protected-mode',
        'yes',
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
    child = started;
    started.once('exit', () => {
      if (child === started) child = undefined;
    });
    const deadline = Date.now() + 10_000;
    while (!(await ping(port))) {
      if (!child) throw new CtxkitError({ code: 'NOT_FOUND', source: 'testkit', message: `redis-server exited before answering on 127.0.0.1:${port}` });
      if (Date.now() > deadline) throw new CtxkitError({ code: 'TIMEOUT', source: 'testkit', message: `redis-server did not answer on 127.0.0.1:${port} within 10 s` });
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  const stop = async () => {
    const running = child;
    if (!running) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    await exited;
    child = undefined;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
