import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// What only a process shows: the bin entry's wiring of argv, output and exit code, and a closed pipe.
// What a command prints is tested in-process, in cli.test.ts (a tsx start is most of a second).
const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(import.meta.dirname, 'cli.ts');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctxkit-process-'));
  const lines: object[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the failing test in src/app.ts' },
  ];
  for (let step = 0; step < 30; step++) {
    lines.push({ role: 'assistant', content: `step ${step}`, tool_calls: [{ id: `c${step}`, name: step % 2 ? 'bash' : 'read_file', arguments: { path: `src/f${step}.ts` } }] });
    lines.push({ role: 'tool', tool_call_id: `c${step}`, content: `export const value${step} = ${step};\n`.repeat(80) });
  }
  writeFileSync(join(dir, 'run.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
});

describe('the ctxkit bin entry', () => {
  it('passes its arguments to the command, prints its output and exits with its code', () => {
    const done = spawnSync(tsx, ['--conditions=@ctxkit/source', cli, 'threshold', '--window', '272000', '--max-output', '256000'], { encoding: 'utf8', timeout: 60_000 });
    expect(done.stderr).toBe('');
    expect(done.stdout).toMatch(/compact at\s+128,000 tokens/);
    expect(done.status).toBe(0);
    const bad = spawnSync(tsx, ['--conditions=@ctxkit/source', cli, 'threshold', '--window', '1000', '--policy', 'greedy'], { encoding: 'utf8', timeout: 60_000 });
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('ctxkit: unknown policy "greedy"');
    expect(bad.status).toBe(2);
  }, 60_000);
});

describe('a reader that closes early', () => {
  // The read end is closed before the command writes anything, as `ctxkit measure run.jsonl | true` does:
  // every write then fails with EPIPE, whatever the pipe's buffer size. simulate writes after awaiting its
  // replays, measure without a replay.
  it.each([
    ['measure', 'run.jsonl'],
    ['simulate', 'run.jsonl'],
  ])(
    'ends %s quietly: exit 0, nothing on stderr',
    async (...args) => {
      const child = spawn(tsx, ['--conditions=@ctxkit/source', cli, ...args.map((arg) => (arg.endsWith('.jsonl') ? join(dir, arg) : arg))], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
    60_000,
  );
});

describe('--plot in a project without its optional libraries', () => {
  // Vega and Vega-Lite are optional peers of ctxkit: the hook resolves them as a project that never installed them.
  it('exits 2 saying what to install, and writes no plot', () => {
    const plot = join(dir, 'frontier.svg');
    const withoutVega = join(import.meta.dirname, '__fixtures__', 'without-vega.mjs');
    const done = spawnSync(tsx, ['--import', withoutVega, '--conditions=@ctxkit/source', cli, 'simulate', join(dir, 'run.jsonl'), '--compare', '--plot', plot], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(done.stderr).toContain('ctxkit: --plot draws with Vega and Vega-Lite, which ctxkit does not install for everyone: run `npm install vega@5 vega-lite@5` beside ctxkit');
    expect(done.stdout).toBe('');
    expect(done.status).toBe(2);
    expect(existsSync(plot)).toBe(false);
  }, 60_000);
});
