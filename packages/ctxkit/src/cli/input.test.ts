import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess as run } from '../__fixtures__/run-cli.ts';
import { tokensOption, windowOption, windowsOption } from './input.ts';

let dir: string;
const file = (name: string) => join(dir, name);
const jsonl = (...lines: object[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
const system = { role: 'system', content: 'You are a coding agent.' };
const user = { role: 'user', content: 'Fix the test' };
const call = (id: string, args: unknown = { path: 'a.ts' }) => ({ role: 'assistant', content: '', tool_calls: [{ id, name: 'read_file', arguments: args }] });
const result = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'export const a = 1;' });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctxkit-input-'));
  writeFileSync(file('empty.jsonl'), '');
  writeFileSync(file('blank.jsonl'), '\n  \n');
  writeFileSync(file('orphan.jsonl'), jsonl(system, user, call('c1'), result('c1'), result('c9')));
  writeFileSync(file('duplicate.jsonl'), jsonl(system, user, call('c1'), result('c1'), call('c1'), result('c1')));
  writeFileSync(file('system-late.jsonl'), jsonl(user, system, call('c1'), result('c1')));
  writeFileSync(file('audio.jsonl'), jsonl(system, { role: 'user', content: [{ type: 'input_audio', data: 'AAAA' }] }));
  // blank lines in the middle: line numbers are the file's, not the message index
  writeFileSync(file('gaps.jsonl'), `${JSON.stringify(system)}\n\n${JSON.stringify(user)}\n\n${JSON.stringify(result('c7'))}\n`);
  writeFileSync(file('bom.jsonl'), `\uFEFF${jsonl(system, user, call('c1'), result('c1'))}`);
  writeFileSync(file('bom-tools.json'), `\uFEFF${JSON.stringify([{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }])}`);
  writeFileSync(file('bad-arguments.jsonl'), jsonl(system, user, call('c1', '{"path": "a.ts"'), result('c1')));
  writeFileSync(file('ok.jsonl'), jsonl(system, user, call('c1'), result('c1')));
});

describe('every command validates a transcript the same way, naming file:line (exit 2)', () => {
  const cases = [
    ['orphan.jsonl', ':5: tool_call_id'],
    ['duplicate.jsonl', ':5: tool_calls[0].id tool call id "c1" is used twice (first on line 3)'],
    ['system-late.jsonl', ':2: role a system message must be the first message'],
    ['audio.jsonl', ':2: content[0].type unknown part type "input_audio"'],
    ['gaps.jsonl', ':5: tool_call_id'],
  ] as const;
  it.each(cases)('%s: measure and simulate both exit 2 and name the line', async (name, expected) => {
    for (const command of ['measure', 'simulate']) {
      const { code, stderr, stdout } = await run(command, file(name));
      expect(code, command).toBe(2);
      expect(stderr, command).toContain(`${file(name)}${expected}`);
      expect(stdout, command).toBe('');
    }
  });

  it('an empty file (or only blank lines) is bad input naming the file, not all-zero tables', async () => {
    for (const name of ['empty.jsonl', 'blank.jsonl']) {
      for (const command of ['measure', 'simulate']) {
        const { code, stderr } = await run(command, file(name));
        expect(code).toBe(2);
        expect(stderr).toContain(`${file(name)}: the file is empty; expected one JSON message per line`);
      }
    }
    writeFileSync(file('empty-tools.json'), '');
    expect(await run('schema-bench', file('empty-tools.json'))).toMatchObject({ code: 2, stderr: expect.stringContaining('empty-tools.json: the file is empty; expected JSON') });
  });

  it('warns about bytes that are not UTF-8 in a tools file, as in a transcript (decision 0105)', async () => {
    const tools = JSON.stringify([{ name: 'read_file', description: 'Lit un fichier.', inputSchema: { type: 'object' } }], null, 1).replace('Lit', 'L\u00ffit');
    writeFileSync(file('latin1-tools.json'), Buffer.from(tools, 'latin1'));
    const expected = `ctxkit: warning: ${file('latin1-tools.json')}:4: not valid UTF-8`;
    for (const args of [
      ['measure', file('ok.jsonl'), '--tools', file('latin1-tools.json')],
      ['schema-bench', file('latin1-tools.json')],
      ['schema-bench', file('latin1-tools.json'), '--defer'],
    ]) {
      const { code, stderr } = await run(...args);
      expect(code, args.join(' ')).toBe(0);
      expect(stderr, args.join(' ')).toContain(expected);
    }
  });

  it('reads a UTF-8 byte order mark at the start of a transcript or a tools file', async () => {
    const measured = await run('measure', file('bom.jsonl'), '--tools', file('bom-tools.json'), '--json');
    expect(measured.code).toBe(0);
    expect(JSON.parse(measured.stdout)).toMatchObject({ messages: 4 });
    expect(JSON.parse(measured.stdout).exact.floorParts.tools).toBeGreaterThan(0);
    expect((await run('schema-bench', file('bom-tools.json'), '--json')).code).toBe(0);
  });

  it('warns about tool-call arguments that are not valid JSON, naming the line, and still measures', async () => {
    const { code, stderr } = await run('measure', file('bad-arguments.jsonl'));
    expect(code).toBe(0);
    expect(stderr).toContain(`ctxkit: warning: ${file('bad-arguments.jsonl')}:3: the arguments of tool call "c1" (read_file) are not valid JSON`);
    expect((await run('measure', file('ok.jsonl'))).stderr).toBe('');
  });
});

describe('numeric options', () => {
  it.each(['1e300', '0x10000', '1e5', '-5', '12.5', 'lots', '', '2000000000'])('refuses --window %j with exit 2', async (value) => {
    const { code, stderr } = await run('threshold', `--window=${value}`);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--window must be (a whole number of tokens|at most 1,000,000,000 tokens)/);
  });

  it('accepts separators and a k suffix', () => {
    expect(tokensOption('window', '128_000')).toBe(128_000);
    expect(tokensOption('window', '128,000')).toBe(128_000);
    expect(tokensOption('window', '128k')).toBe(128_000);
    expect(tokensOption('window', undefined, 7)).toBe(7);
  });

  it('refuses a window with thousands commas in simulate, where commas separate windows (decision 0105)', async () => {
    // threshold reads 8,192 as one window; simulate split it into 8 and 192, and 128,000 into 128 and 0.
    for (const value of ['8,192', '128,000', '1,000,000']) {
      const { code, stderr, stdout } = await run('simulate', file('ok.jsonl'), '--window', value);
      expect(code, value).toBe(2);
      expect(stderr, value).toContain(`--window "${value}" is ambiguous in simulate, where commas separate windows: write one window as ${value.replace(/,/g, '')}`);
      expect(stdout).toBe('');
    }
    expect(windowsOption('32000,64000', 1)).toEqual([32_000, 64_000]);
    expect(windowsOption('128, 500', 1)).toEqual([128, 500]);
    expect(windowsOption(undefined, 32_000)).toEqual([32_000]);
  });

  it('--window 0 gets its own message, for threshold and simulate alike', async () => {
    expect(() => windowOption('0')).toThrow('[ctxkit:cli] --window must be above zero');
    for (const args of [
      ['threshold', '--window', '0'],
      ['simulate', file('ok.jsonl'), '--window', '0'],
    ]) {
      const { code, stderr } = await run(...args);
      expect(code).toBe(2);
      expect(stderr).toContain('--window must be above zero');
      expect(stderr).not.toContain('--max-output');
    }
  });
});

describe('measure --model says which tokenizer counted', () => {
  it('calls o200k counts an estimate for a Claude model, and exact for an OpenAI one', async () => {
    const claude = await run('measure', file('ok.jsonl'), '--model', 'claude-sonnet-4-5');
    expect(claude.stdout).toContain("counted with o200k_base (OpenAI's tokenizer): an estimate for claude-sonnet-4-5, the claude family has its own tokenizer");
    expect(claude.stdout).toMatch(/^part\s+o200k_base \(estimate\)\s+estimate$/m);
    expect(claude.stdout).not.toMatch(/\bexact\b/);
    const json = JSON.parse((await run('measure', file('ok.jsonl'), '--model', 'claude-sonnet-4-5', '--json')).stdout);
    expect(json.tokenizer).toMatchObject({ encoding: 'o200k_base', exact: false, family: 'claude' });
    const openai = await run('measure', file('ok.jsonl'), '--model', 'gpt-4o');
    expect(openai.stdout).toContain('counted with o200k_base, the tokenizer of gpt-4o: exact');
    expect(openai.stdout).toMatch(/^part\s+exact\s+estimate$/m);
  });
});

describe('threshold on small windows (decision 0030)', () => {
  it('never answers above the window, and knowing less does not lower it', async () => {
    const small = JSON.parse((await run('threshold', '--window', '1000', '--json')).stdout);
    expect(small.threshold).toBeLessThan(1_000);
    expect(small).toMatchObject({ threshold: 500, bound: 'fraction' });
    const unknown = JSON.parse((await run('threshold', '--window', '8192', '--json')).stdout);
    const known = JSON.parse((await run('threshold', '--window', '8192', '--max-output', '8192', '--json')).stdout);
    expect(unknown.threshold).toBe(known.threshold);
  });
});
