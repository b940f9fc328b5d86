import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

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
  writeFileSync(
    join(dir, 'tools.json'),
    JSON.stringify([{ name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }]),
  );
  writeFileSync(join(dir, 'system.txt'), 'You are a coding agent.');
});

describe('a reader that closes early', () => {
  // The read end is closed before the command writes anything, as `ctxkit measure run.jsonl | true` does:
  // every write then fails with EPIPE, whatever the pipe's buffer size.
  it.each([
    ['measure', 'run.jsonl'],
    ['simulate', '--demo'],
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

/** The commands of a README's sh blocks, each with the output lines its comments promise. */
function readmeCommands(path: string): { command: string; promised: string[] }[] {
  const commands: { command: string; promised: string[] }[] = [];
  for (const block of readFileSync(path, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n')) {
      const command = /^(?:npx )?(ctxkit .*?)(?:\s+#.*)?$/.exec(line)?.[1];
      if (command) commands.push({ command, promised: [] });
      else if (line.startsWith('#   ') && commands.length > 0) commands.at(-1)!.promised.push(line.slice(4));
    }
  }
  return commands;
}

describe('every ctxkit command documented in a README runs', () => {
  const commands = [...readmeCommands(join(root, 'README.md')), ...readmeCommands(join(import.meta.dirname, '..', 'README.md'))];
  it('finds the documented commands', () => {
    expect(commands.map(({ command }) => command.split(' ')[1])).toEqual(expect.arrayContaining(['threshold', 'measure', 'schema-bench', 'simulate']));
  });
  it.each(commands)(
    '$command',
    ({ command, promised }) => {
      // `[--option value]` in a README is an optional part: run the command with it.
      const line = command.replace(/\[([^\]]+)\]/g, '$1').replace(/^ctxkit /, '');
      const result = spawnSync('sh', ['-c', `"${tsx}" --conditions=@ctxkit/source "${cli}" ${line}`], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      expect(result.stderr).not.toMatch(/^ctxkit: (?!note)/m);
      expect(result.status).toBe(0);
      for (const output of promised) expect(result.stdout).toContain(output);
    },
    120_000,
  );
});
