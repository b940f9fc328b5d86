import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const workDir = mkdtempSync(join(tmpdir(), 'ctxkit-tokens-lazy-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// A module resolve hook in a fresh Node process writes down every js-tiktoken module the process
// asks for, so the test sees what a real process would load, not what a test runner preloaded.
function modulesLoadedBy(body: string, name: string): string[] {
  const log = join(workDir, `${name}.log`);
  const hook = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (specifier.includes('js-tiktoken')) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
  return next(specifier, context);
}`;
  const entry = pathToFileURL(join(import.meta.dirname, 'index.ts')).href;
  const script = `import { register } from 'node:module';
import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(log)}, '');
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
const { createMeter, tiktokenCounter } = await import(${JSON.stringify(entry)});
${body}`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@ctxkit/source', '--input-type=module', '-e', script], {
    cwd: join(import.meta.dirname, '..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr, 'child process stderr').not.toMatch(/Error/);
  expect(result.status).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const transcript = `const messages = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the failing test in src/app.ts' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' }] },
  { role: 'tool', toolCallId: 'c1', content: 'FAIL src/app.test.ts '.repeat(50) },
];`;

describe('the ranks load lazily', () => {
  it('a process that only estimates never loads them', () => {
    const loaded = modulesLoadedBy(
      `${transcript}
const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
const measured = meter.measure(messages, { model: 'gpt-4o' });
meter.record({ inputTokens: 600, messageCount: 4, model: 'gpt-4o' });
meter.countMessages(messages);
meter.countText('hello');
const verdict = await meter.exceeds(messages, 1_000_000);
if (measured.source !== 'estimate' || verdict.exceeds) process.exit(3);`,
      'estimate-only',
    );
    expect(loaded).toEqual([]);
  });

  it('ready() loads exactly the ranks of the encoding asked for', () => {
    const loaded = modulesLoadedBy(
      `${transcript}
const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
await meter.ready();
if (meter.measure(messages).source !== 'exact') process.exit(3);`,
      'ready',
    );
    expect(loaded).toEqual(['js-tiktoken/ranks/o200k_base']);
  });

  it('an over-threshold estimate loads them to confirm', () => {
    const loaded = modulesLoadedBy(
      `${transcript}
const meter = createMeter({ tokenizer: tiktokenCounter('cl100k_base') });
const verdict = await meter.exceeds(messages, 10);
if (!verdict.confirmed || !verdict.exceeds) process.exit(3);`,
      'confirm',
    );
    expect(loaded).toEqual(['js-tiktoken/ranks/cl100k_base']);
  });
});
