import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCliInProcess as ctxkit } from './__fixtures__/run-cli.ts';
import { packageVersion } from './cli/main.ts';

const root = join(import.meta.dirname, '..', '..', '..');

// The demo replays 171 steps under every policy, seconds of work: the tests that check its output share one run.
let demoRun: Promise<CliResult> | undefined;
const demo = () => (demoRun ??= ctxkit('simulate', '--demo'));

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctxkit-cli-'));
  const lines = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the failing test in src/app.ts' },
  ];
  for (let step = 0; step < 40; step++) {
    lines.push({ role: 'assistant', content: `step ${step}`, tool_calls: [{ id: `c${step}`, name: step % 2 ? 'bash' : 'read_file', arguments: { path: `src/f${step}.ts` } }] } as never);
    lines.push({ role: 'tool', tool_call_id: `c${step}`, content: `export const value${step} = ${step};\n`.repeat(60) } as never);
  }
  writeFileSync(file('run.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  const broken = lines.slice(0, 10).map((line) => JSON.stringify(line));
  broken[6] = '{"role": "assistant", "content": "oops"';
  writeFileSync(file('broken.jsonl'), broken.join('\n'));
  writeFileSync(
    file('tools.json'),
    JSON.stringify({
      tools: [
        {
          name: 'read_file',
          description: 'Read a file from the workspace. Use it before editing.',
          inputSchema: {
            type: 'object',
            title: 'ReadFileArgs',
            properties: { path: { type: 'string', description: 'The path of the file to read, e.g. src/app.ts. Relative to the workspace root.', examples: ['src/app.ts'] } },
            required: ['path'],
          },
        },
      ],
    }),
  );
  writeFileSync(file('bad-tools.json'), '{\n  "tools": [\n    { "name": "x" }\n  ]\n  oops\n}\n');
  writeFileSync(file('system.txt'), 'You are a coding agent.');
});

describe('ctxkit --version', () => {
  const version = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;

  it("prints the version in ctxkit's package.json, as --version and -V, and exits 0", async () => {
    for (const flag of ['--version', '-V']) expect(await ctxkit(flag)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('is listed in --help', async () => {
    expect((await ctxkit('--help')).stdout).toMatch(/ctxkit --version\s+\(or -V\) prints the version of ctxkit/);
  });

  it('reads the package.json beside the built file, as the packed package has it (dist/cli.js)', () => {
    const packed = mkdtempSync(join(tmpdir(), 'ctxkit-packed-'));
    writeFileSync(join(packed, 'package.json'), JSON.stringify({ name: 'ctxkit', version: '9.8.7' }));
    expect(packageVersion(join(packed, 'dist', 'cli.js'))).toBe('9.8.7');
  });
});

describe('ctxkit threshold', () => {
  it('prints the threshold, target and the bound that decided it', async () => {
    const { code, stdout } = await ctxkit('threshold', '--window', '272000', '--max-output', '256000');
    expect(code).toBe(0);
    expect(stdout).toMatch(/compact at\s+128,000 tokens/);
    expect(stdout).toMatch(/target\s+76,800 tokens/);
    expect(stdout).toContain('capped at 256,000');
  });

  it('answers in JSON, for the budget policy too', async () => {
    const { code, stdout } = await ctxkit('threshold', '--window', '200000', '--policy', 'budget', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ window: 200_000, policy: 'budget', threshold: 96_000, target: 57_600 });
  });

  it('refuses a window too small for the smallest request and its answer, naming the smallest that is not (decision 0105)', async () => {
    for (const window of ['1', '2', '14']) {
      const tiny = await ctxkit('threshold', '--window', window);
      expect(tiny.code).toBe(2);
      expect(tiny.stdout).toBe('');
      expect(tiny.stderr).toContain(`--window ${window} cannot hold a request and its answer: the smallest request is 8 tokens`);
      expect(tiny.stderr).toContain('the smallest usable window is 15 tokens');
    }
    expect((await ctxkit('threshold', '--window', '8', '--max-output', '1')).stderr).toContain('the smallest usable window with --max-output 1 is 9 tokens');
    const smallest = await ctxkit('threshold', '--window', '15', '--json');
    expect(smallest.code).toBe(0);
    expect(JSON.parse(smallest.stdout)).toMatchObject({ threshold: 8 });
    expect((await ctxkit('threshold', '--window', '9', '--max-output', '1')).code).toBe(0);
  });

  it('answers for the small windows people use, under either policy and with an output budget (review of session seven)', async () => {
    for (const window of ['512', '2048', '4096'])
      for (const extra of [[], ['--policy', 'budget'], ['--max-output', String(Number(window) / 2)], ['--policy', 'budget', '--max-output', '256']]) {
        const { code, stdout, stderr } = await ctxkit('threshold', '--window', window, ...extra, '--json');
        expect({ window, extra, code, stderr }).toEqual({ window, extra, code: 0, stderr: '' });
        expect(JSON.parse(stdout).threshold).toBeGreaterThanOrEqual(8);
      }
  });

  it('exits 2 for an unknown policy or a missing window', async () => {
    const unknown = await ctxkit('threshold', '--window', '1000', '--policy', 'greedy');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown policy "greedy"; expected one of half-window, budget');
    expect((await ctxkit('threshold')).code).toBe(2);
  });
});

describe('ctxkit measure', () => {
  it('splits the fixed floor from the growing part, per role and per tool, exact beside estimated', async () => {
    const { code, stdout } = await ctxkit('measure', file('run.jsonl'), '--model', 'gpt-4o', '--tools', file('tools.json'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/fixed floor \(resent every step\)\s+\d+\s+\d+/);
    expect(stdout).toMatch(/tool definitions\s+[1-9]\d*/);
    expect(stdout).toMatch(/^tool\s+40\s+[\d,]+\s+[\d,]+$/m);
    expect(stdout).toMatch(/^read_file\s+20\s+/m);
    const json = JSON.parse((await ctxkit('measure', file('run.jsonl'), '--json')).stdout);
    expect(json.exact.total).toBe(json.exact.floor + json.exact.growing);
    expect(json.estimate.total).toBeGreaterThan(0);
    expect(json.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['bash', 'read_file']);
  });

  it('names the file and line of invalid JSON, and exits 2', async () => {
    const { code, stderr } = await ctxkit('measure', file('broken.jsonl'));
    expect(code).toBe(2);
    expect(stderr).toContain(`${file('broken.jsonl')}:7: not valid JSON`);
  });

  it('exits 2 for a missing file', async () => {
    const { code, stderr } = await ctxkit('measure', file('nope.jsonl'));
    expect(code).toBe(2);
    expect(stderr).toContain(`${file('nope.jsonl')}: no such file`);
  });

  it('says "1 message" of a one-message run, "2 messages" of two (decision 0105)', async () => {
    writeFileSync(file('one.jsonl'), `${JSON.stringify({ role: 'user', content: 'Fix the failing test.' })}\n`);
    expect((await ctxkit('measure', file('one.jsonl'))).stdout).toMatch(/^one\.jsonl: 1 message, counted/);
    writeFileSync(file('two.jsonl'), `${JSON.stringify({ role: 'system', content: 'You are a coding agent.' })}\n${JSON.stringify({ role: 'user', content: 'Fix it.' })}\n`);
    expect((await ctxkit('measure', file('two.jsonl'))).stdout).toMatch(/^two\.jsonl: 2 messages, counted/);
  });
});

describe('ctxkit schema-bench', () => {
  it('prints tokens per tool and the floor before and after compaction', async () => {
    const { code, stdout } = await ctxkit('schema-bench', file('tools.json'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^read_file\s+\d+\s+\d+\s+\d+%$/m);
    expect(stdout).toMatch(/floor, every step/);
  });

  it('--compact prints the compacted tools in the container they came in', async () => {
    const { code, stdout } = await ctxkit('schema-bench', file('tools.json'), '--compact');
    expect(code).toBe(0);
    const compacted = JSON.parse(stdout);
    expect(compacted.tools[0].inputSchema.properties.path.type).toBe('string');
    expect(compacted.tools[0].inputSchema.title).toBeUndefined();
    expect(compacted.tools[0].inputSchema.properties.path.examples).toBeUndefined();
  });

  it('--defer over one tool says "1 tool", not "1 tools" (decision 0105)', async () => {
    writeFileSync(file('one-query.json'), JSON.stringify({ queries: [{ query: 'read a file', tools: ['read_file'] }] }));
    const { code, stdout } = await ctxkit('schema-bench', file('tools.json'), '--defer', '--queries', file('one-query.json'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^all 1 tool sent\s/m);
    expect(stdout).toMatch(/^tool search over 1 tool\s/m);
  });

  it('names the line of invalid JSON in a tools file', async () => {
    const { code, stderr } = await ctxkit('schema-bench', file('bad-tools.json'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad-tools\.json:5:\d+: invalid JSON/);
  });
});

/** The policies `simulate --compare` replays, in its order. */
const everyPolicy = 'none, sliding-window, summarize-at-90, observation-masking, codex, gemini-cli, opencode, anthropic-context-editing, ctxkit';

describe('ctxkit simulate', () => {
  it('replays a run and reports the fields of --json, per file and policy', async () => {
    const { code, stdout } = await ctxkit('simulate', file('run.jsonl'), '--window', '8000', '--max-output', '1000', '--compare', '--check', '--json');
    expect(code).toBe(0);
    const { runs } = JSON.parse(stdout);
    expect(runs.map((run: { policy: string }) => run.policy).join(', ')).toBe(everyPolicy);
    for (const run of runs) {
      expect(Object.keys(run)).toEqual(
        expect.arrayContaining([
          'file',
          'policy',
          'window',
          'steps',
          'compactions',
          'refills',
          'overflows',
          'peakInputTokens',
          'totalInputTokens',
          'cachedPrefixTokens',
          'summarizerCalls',
          'summarizerInputTokens',
          'summarizerOutputTokens',
          'summarizerFailures',
          'retention',
          'farRetention',
          'estimatedCostUsd',
          'invariantViolations',
        ]),
      );
      expect(run.steps).toBe(40);
    }
    const byPolicy = Object.fromEntries(runs.map((run: { policy: string }) => [run.policy, run]));
    expect(byPolicy.none.overflows).toBeGreaterThan(0);
    expect(byPolicy.ctxkit).toMatchObject({ overflows: 0, invariantViolations: 0 });
    expect(byPolicy.ctxkit.compactions).toBeGreaterThan(0);
  });

  it('runs the built-in demo with no file and no network', { timeout: 120_000 }, async () => {
    const { code, stdout } = await demo();
    expect(code).toBe(0);
    expect(stdout).toMatch(/demo \(synthetic coding session\)\s+ctxkit\s+\d+/);
    expect(stdout).toContain('summarize-at-90');
  });

  it("--iso runs each peer by its own rule and at ctxkit's threshold, with totals pooled over the runs", async () => {
    const { code, stdout } = await ctxkit('simulate', file('run.jsonl'), file('run.jsonl'), '--window', '8000', '--max-output', '1000', '--compare', '--iso', '--json');
    expect(code).toBe(0);
    const { runs, totals } = JSON.parse(stdout);
    const codex = runs.filter((run: { policy: string }) => run.policy === 'codex');
    expect(codex.map((run: { rule: string }) => run.rule)).toEqual(['own', 'iso', 'own', 'iso']);
    // ctxkit's threshold at 8,000 with a 1,000 reserve is 4,000.
    expect(codex[1].triggerTokens).toBe(4_000);
    expect(runs.filter((run: { policy: string }) => run.policy === 'ctxkit').map((run: { rule: string }) => run.rule)).toEqual(['own', 'own']);
    const pooled = totals.find((total: { policy: string; rule: string }) => total.policy === 'codex' && total.rule === 'iso');
    expect(pooled.runs).toBe(2);
    expect(pooled.compactions).toBe(codex[1].compactions + codex[3].compactions);
    expect(pooled.farRetention).toBeCloseTo(codex[1].farRetention, 10);
  });

  it('--trigger-tokens puts every policy on one trigger, and --usage-skew under-reports usage without an overflow', async () => {
    const { code, stdout } = await ctxkit('simulate', file('run.jsonl'), '--window', '8000', '--max-output', '1000', '--trigger-tokens', '3000', '--usage-skew', '0.5', '--json');
    expect(code).toBe(0);
    const [run] = JSON.parse(stdout).runs;
    expect(run).toMatchObject({ policy: 'ctxkit', rule: 'trigger', triggerTokens: 3_000, overflows: 0 });
    expect(run.compactions).toBeGreaterThan(0);
  });

  it('--plot draws retention against cost as an SVG a browser opens', async () => {
    const plot = file('frontier.svg');
    const { code, stderr } = await ctxkit('simulate', file('run.jsonl'), '--window', '8000,16000', '--max-output', '1000', '--compare', '--plot', plot);
    expect(code).toBe(0);
    expect(stderr).toContain(`wrote ${plot}`);
    const svg = readFileSync(plot, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('far retention');
    expect(svg).toContain('opencode');
    expect(svg).toContain('16K window');
  });
});

describe('ctxkit simulate: bad options and failures', () => {
  it('exits 2 for an unknown policy, naming the choices', async () => {
    const { code, stderr } = await ctxkit('simulate', file('run.jsonl'), '--policy', 'magic');
    expect(code).toBe(2);
    expect(stderr).toContain(`unknown policy "magic"; expected one of ${everyPolicy}`);
  });

  it('exits 2 for --iso without --compare, a usage skew out of range, or a zero trigger', async () => {
    expect((await ctxkit('simulate', file('run.jsonl'), '--iso')).stderr).toContain("--iso compares the policies at ctxkit's threshold: use it with --compare");
    const skew = await ctxkit('simulate', file('run.jsonl'), '--usage-skew', 'half');
    expect(skew.code).toBe(2);
    expect(skew.stderr).toContain('--usage-skew must be a number above 0 and at most 10');
    expect((await ctxkit('simulate', file('run.jsonl'), '--trigger-tokens', '0')).code).toBe(2);
    const lonelyURL = await ctxkit('simulate', file('run.jsonl'), '--summarizer-url', 'http://127.0.0.1:11434');
    expect(lonelyURL.code).toBe(2);
    expect(lonelyURL.stderr).toContain('--summarizer-url says where the --summarizer model answers: use it with --summarizer');
    const badURL = await ctxkit('simulate', file('run.jsonl'), '--summarizer', 'ollama:qwen3:8b', '--summarizer-url', '127.0.0.1:11434');
    expect(badURL.code).toBe(2);
    expect(badURL.stderr).toContain('--summarizer-url must be an http:// or https:// URL, got "127.0.0.1:11434"');
    const plot = await ctxkit('simulate', file('run.jsonl'), '--plot', join(dir, 'missing', 'frontier.svg'));
    expect(plot.code).toBe(2);
    expect(plot.stderr).toContain(`--plot ${join(dir, 'missing', 'frontier.svg')}: the folder ${join(dir, 'missing')} does not exist`);
  });

  it('warns and exits 1 when the named summarizer never answered, with the failures in --json', async () => {
    // A server at --summarizer-url that drops every connection: every summary call fails, whether or not an
    // Ollama runs on this machine's usual port.
    let calls = 0;
    const server = createServer((request) => {
      calls++;
      request.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { code, stdout, stderr } = await ctxkit(
      'simulate',
      file('run.jsonl'),
      '--window',
      '8000',
      '--max-output',
      '1000',
      '--summarizer',
      'ollama:qwen3:8b',
      '--summarizer-url',
      url,
      '--json',
    ).finally(() => server.close());
    expect(calls).toBeGreaterThan(0);
    expect(code).toBe(1);
    const [run] = JSON.parse(stdout).runs;
    expect(run.summarizerFailures).toBeGreaterThan(0);
    // Only trim's offline notes were written (and priced); no summary came from the model.
    expect(run.summarizerCalls).toBe(run.offlineNotes);
    // Why it never answered, from the first failed call (decision 0105): a new user sees the missing key or server.
    expect(run.summarizerError).toMatch(/^\[ctxkit:ollama\] /);
    expect(stderr).toMatch(/the summarizer ollama:qwen3:8b never answered \(\d+ failed calls, the first: \[ctxkit:ollama\] [^)]+\)/);
  });

  it('exits 2 for an unknown command or option', async () => {
    expect((await ctxkit('compress', 'x')).code).toBe(2);
    const stray = await ctxkit('threshold', '--window', '1000', '--demo');
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('threshold does not take --demo');
  });
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

/**
 * A README command line as arguments, without a shell: `[--option value]` (an optional part) is run
 * with the option, and a trailing `> FILE` names where stdout goes. Anything else a shell would read
 * (quotes, pipes, variables) fails the test, so a command this cannot run is not passed over.
 */
function commandLine(command: string): { args: string[]; stdoutFile?: string } {
  const words = command
    .replace(/\[([^\]]+)\]/g, '$1')
    .split(/\s+/)
    .slice(1);
  const redirect = words.indexOf('>');
  const args = redirect === -1 ? words : words.slice(0, redirect);
  const stdoutFile = redirect === -1 ? undefined : words.slice(redirect + 1);
  const shellOnly = [...args, ...(stdoutFile ?? [])].find((word) => /[|&;<>()$`\\"'*?{}]/.test(word));
  if (shellOnly !== undefined || (stdoutFile !== undefined && stdoutFile.length !== 1)) throw new Error(`a README command this test cannot run without a shell: ${command}`);
  return stdoutFile ? { args, stdoutFile: stdoutFile[0]! } : { args };
}

describe('every ctxkit command documented in a README runs', () => {
  // The same command in both READMEs runs once, held to the promises of both.
  const commands = new Map<string, string[]>();
  for (const { command, promised } of [...readmeCommands(join(root, 'README.md')), ...readmeCommands(join(import.meta.dirname, '..', 'README.md'))]) {
    commands.set(command, [...(commands.get(command) ?? []), ...promised]);
  }
  // The commands name their files relative to where they run: run.jsonl, tools.json, system.txt.
  const cwd = process.cwd();
  beforeAll(() => process.chdir(dir));
  afterAll(() => process.chdir(cwd));

  it('finds the documented commands', () => {
    expect([...commands.keys()].map((command) => command.split(' ')[1])).toEqual(expect.arrayContaining(['threshold', 'measure', 'schema-bench', 'simulate']));
  });
  it.each([...commands].map(([command, promised]) => ({ command, promised })))(
    '$command',
    async ({ command, promised }) => {
      const { args, stdoutFile } = commandLine(command);
      const result = args.join(' ') === 'simulate --demo' ? await demo() : await ctxkit(...args);
      if (stdoutFile) writeFileSync(stdoutFile, result.stdout);
      expect(result.stderr).not.toMatch(/^ctxkit: (?!note)/m);
      expect(result.code).toBe(0);
      for (const output of promised) expect(result.stdout).toContain(output);
    },
    120_000,
  );
});

describe('the demo table in the README', () => {
  it('is the table the demo prints, row for row (the demo is the same on every machine)', { timeout: 120_000 }, async () => {
    const rows = (text: string) => text.split('\n').filter((line) => line.startsWith('demo (synthetic coding session)'));
    const documented = rows(readFileSync(join(root, 'README.md'), 'utf8'));
    expect(documented.length).toBeGreaterThan(0);
    expect(rows((await demo()).stdout)).toEqual(documented);
  });
});

describe('a new user, again (issue 14 re-check, decision 0081)', () => {
  it('says when a --max-output the window cannot hold is capped at half the window', async () => {
    const { code, stdout } = await ctxkit('threshold', '--window', '8192', '--max-output', '10000');
    expect(code).toBe(0);
    expect(stdout).toContain('with 4,096 tokens still free for the answer (the 10,000 max output, capped at half the window)');
  });

  it('refuses a --max-output in simulate that leaves no room in a window, with the numbers written as elsewhere', async () => {
    const { code, stderr } = await ctxkit('simulate', file('run.jsonl'), '--window', '8192', '--max-output', '10000');
    expect(code).toBe(2);
    expect(stderr).toContain('--max-output (10,000) must be smaller than --window (8,192)');
  });

  it('says the floor decided a budget threshold in a small window', async () => {
    const { code, stdout } = await ctxkit('threshold', '--window', '1000', '--policy', 'budget', '--json');
    expect(code).toBe(0);
    const answer = JSON.parse(stdout) as { threshold: number; bound: string; reason: string };
    expect(answer.threshold).toBe(500);
    expect(answer.reason).toContain('so the floor applies');
  });

  it('simulates a small window without --max-output: the default reserve shrinks to half the window', async () => {
    const { code, stdout, stderr } = await ctxkit('simulate', file('run.jsonl'), '--window', '1000', '--policy', 'none');
    expect(stderr).not.toContain('--max-output');
    expect(code).toBe(0);
    expect(stdout).toContain('window 1,000, output reserve 500');
  });

  it.each([
    ['llama3.1:8b', 'the llama family'],
    ['ollama:qwen3:8b', 'the qwen family'],
    ['openrouter/anthropic/claude-sonnet-4-5', 'the claude family'],
  ])('names the tokenizer family of %s', async (model, family) => {
    const { code, stdout } = await ctxkit('measure', file('run.jsonl'), '--model', model);
    expect(code).toBe(0);
    expect(stdout).toContain(family);
  });

  it('refuses an empty --model instead of labelling the counts "an estimate for "', async () => {
    for (const command of [
      ['measure', file('run.jsonl')],
      ['simulate', file('run.jsonl')],
    ]) {
      const { code, stdout, stderr } = await ctxkit(...command, '--model', '');
      expect(code).toBe(2);
      expect(stderr).toContain('--model needs a value, got ""');
      expect(stdout).toBe('');
    }
  });

  it('refuses a file where the command takes none, instead of ignoring it (decision 0105)', async () => {
    const threshold = await ctxkit('threshold', '--window', '128000', file('run.jsonl'));
    expect(threshold.code).toBe(2);
    expect(threshold.stderr).toContain(`threshold takes no file, got ${file('run.jsonl')}`);
    const demo = await ctxkit('simulate', file('run.jsonl'), '--demo');
    expect(demo.code).toBe(2);
    expect(demo.stderr).toContain(`simulate --demo replays its own session and takes no file; got ${file('run.jsonl')}`);
    expect(demo.stdout).toBe('');
  });

  it('does not invent a family for a model it does not know', async () => {
    const { stdout } = await ctxkit('measure', file('run.jsonl'), '--model', 'totally-unknown');
    expect(stdout).not.toContain('the totally family');
    expect(stdout).toContain('an estimate for totally-unknown');
  });

  it('warns about bytes that are not UTF-8, naming the file and line', async () => {
    const latin1 = Buffer.concat([Buffer.from('{"role":"system","content":"s"}\n{"role":"user","content":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]);
    writeFileSync(file('latin1.jsonl'), latin1);
    const { code, stderr } = await ctxkit('measure', file('latin1.jsonl'));
    expect(code).toBe(0);
    expect(stderr).toContain(`${file('latin1.jsonl')}:2: not valid UTF-8`);
  });

  it('names an unknown option and what the command takes, not the advice about positionals', async () => {
    const { code, stderr } = await ctxkit('measure', file('run.jsonl'), '--bogus');
    expect(code).toBe(2);
    expect(stderr).toContain('ctxkit: unknown option --bogus; measure takes --model, --tools, --json');
    expect(stderr).not.toContain('positional');
  });
});
