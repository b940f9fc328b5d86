import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(import.meta.dirname, 'cli.ts');

/** Runs the ctxkit command as a child process, from sources. */
function ctxkit(...args: string[]) {
  const result = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['--conditions=@ctxkit/source', cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

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
});

describe('ctxkit threshold', () => {
  it('prints the threshold, target and the bound that decided it', () => {
    const { code, stdout } = ctxkit('threshold', '--window', '272000', '--max-output', '256000');
    expect(code).toBe(0);
    expect(stdout).toMatch(/compact at\s+128,000 tokens/);
    expect(stdout).toMatch(/target\s+76,800 tokens/);
    expect(stdout).toContain('capped at 256,000');
  });

  it('answers in JSON, for the budget policy too', () => {
    const { code, stdout } = ctxkit('threshold', '--window', '200000', '--policy', 'budget', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ window: 200_000, policy: 'budget', threshold: 96_000, target: 57_600 });
  });

  it('exits 2 for an unknown policy or a missing window', () => {
    const unknown = ctxkit('threshold', '--window', '1000', '--policy', 'greedy');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown policy "greedy"; expected one of half-window, budget');
    expect(ctxkit('threshold').code).toBe(2);
  });
});

describe('ctxkit measure', () => {
  it('splits the fixed floor from the growing part, per role and per tool, exact beside estimated', () => {
    const { code, stdout } = ctxkit('measure', file('run.jsonl'), '--model', 'gpt-4o', '--tools', file('tools.json'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/fixed floor \(resent every step\)\s+\d+\s+\d+/);
    expect(stdout).toMatch(/tool definitions\s+[1-9]\d*/);
    expect(stdout).toMatch(/^tool\s+40\s+[\d,]+\s+[\d,]+$/m);
    expect(stdout).toMatch(/^read_file\s+20\s+/m);
    const json = JSON.parse(ctxkit('measure', file('run.jsonl'), '--json').stdout);
    expect(json.exact.total).toBe(json.exact.floor + json.exact.growing);
    expect(json.estimate.total).toBeGreaterThan(0);
    expect(json.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['bash', 'read_file']);
  });

  it('names the file and line of invalid JSON, and exits 2', () => {
    const { code, stderr } = ctxkit('measure', file('broken.jsonl'));
    expect(code).toBe(2);
    expect(stderr).toContain(`${file('broken.jsonl')}:7: not valid JSON`);
  });

  it('exits 2 for a missing file', () => {
    const { code, stderr } = ctxkit('measure', file('nope.jsonl'));
    expect(code).toBe(2);
    expect(stderr).toContain(`${file('nope.jsonl')}: no such file`);
  });
});

describe('ctxkit schema-bench', () => {
  it('prints tokens per tool and the floor before and after compaction', () => {
    const { code, stdout } = ctxkit('schema-bench', file('tools.json'));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^read_file\s+\d+\s+\d+\s+\d+%$/m);
    expect(stdout).toMatch(/floor, every step/);
  });

  it('--compact prints the compacted tools in the container they came in', () => {
    const { code, stdout } = ctxkit('schema-bench', file('tools.json'), '--compact');
    expect(code).toBe(0);
    const compacted = JSON.parse(stdout);
    expect(compacted.tools[0].inputSchema.properties.path.type).toBe('string');
    expect(compacted.tools[0].inputSchema.title).toBeUndefined();
    expect(compacted.tools[0].inputSchema.properties.path.examples).toBeUndefined();
  });

  it('names the line of invalid JSON in a tools file', () => {
    const { code, stderr } = ctxkit('schema-bench', file('bad-tools.json'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad-tools\.json:5:\d+: invalid JSON/);
  });
});

/** The policies `simulate --compare` replays, in its order. */
const everyPolicy = 'none, sliding-window, summarize-at-90, observation-masking, codex, gemini-cli, opencode, anthropic-context-editing, ctxkit';

describe('ctxkit simulate', () => {
  it('replays a run and reports the fields of --json, per file and policy', () => {
    const { code, stdout } = ctxkit('simulate', file('run.jsonl'), '--window', '8000', '--max-output', '1000', '--compare', '--check', '--json');
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

  it('runs the built-in demo with no file and no network', { timeout: 120_000 }, () => {
    const { code, stdout } = ctxkit('simulate', '--demo');
    expect(code).toBe(0);
    expect(stdout).toMatch(/demo \(synthetic coding session\)\s+ctxkit\s+\d+/);
    expect(stdout).toContain('summarize-at-90');
  });

  it("--iso runs each peer by its own rule and at ctxkit's threshold, with totals pooled over the runs", () => {
    const { code, stdout } = ctxkit('simulate', file('run.jsonl'), file('run.jsonl'), '--window', '8000', '--max-output', '1000', '--compare', '--iso', '--json');
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

  it('--trigger-tokens puts every policy on one trigger, and --usage-skew under-reports usage without an overflow', () => {
    const { code, stdout } = ctxkit('simulate', file('run.jsonl'), '--window', '8000', '--max-output', '1000', '--trigger-tokens', '3000', '--usage-skew', '0.5', '--json');
    expect(code).toBe(0);
    const [run] = JSON.parse(stdout).runs;
    expect(run).toMatchObject({ policy: 'ctxkit', rule: 'trigger', triggerTokens: 3_000, overflows: 0 });
    expect(run.compactions).toBeGreaterThan(0);
  });

  it('--plot draws retention against cost as an SVG a browser opens', () => {
    const plot = file('frontier.svg');
    const { code, stderr } = ctxkit('simulate', file('run.jsonl'), '--window', '8000,16000', '--max-output', '1000', '--compare', '--plot', plot);
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
  it('exits 2 for an unknown policy, naming the choices', () => {
    const { code, stderr } = ctxkit('simulate', file('run.jsonl'), '--policy', 'magic');
    expect(code).toBe(2);
    expect(stderr).toContain(`unknown policy "magic"; expected one of ${everyPolicy}`);
  });

  it('exits 2 for --iso without --compare, a usage skew out of range, or a zero trigger', () => {
    expect(ctxkit('simulate', file('run.jsonl'), '--iso').stderr).toContain("--iso compares the policies at ctxkit's threshold: use it with --compare");
    const skew = ctxkit('simulate', file('run.jsonl'), '--usage-skew', 'half');
    expect(skew.code).toBe(2);
    expect(skew.stderr).toContain('--usage-skew must be a number above 0 and at most 10');
    expect(ctxkit('simulate', file('run.jsonl'), '--trigger-tokens', '0').code).toBe(2);
    const plot = ctxkit('simulate', file('run.jsonl'), '--plot', join(dir, 'missing', 'frontier.svg'));
    expect(plot.code).toBe(2);
    expect(plot.stderr).toContain(`--plot ${join(dir, 'missing', 'frontier.svg')}: the folder ${join(dir, 'missing')} does not exist`);
  });

  it('warns and exits 1 when the named summarizer never answered, with the failures in --json', () => {
    // Nothing listens on Ollama's port here: every summary call is refused.
    const { code, stdout, stderr } = ctxkit('simulate', file('run.jsonl'), '--window', '8000', '--max-output', '1000', '--summarizer', 'ollama:qwen3:8b', '--json');
    expect(code).toBe(1);
    const [run] = JSON.parse(stdout).runs;
    expect(run.summarizerFailures).toBeGreaterThan(0);
    // Only trim's offline notes were written (and priced); no summary came from the model.
    expect(run.summarizerCalls).toBe(run.offlineNotes);
    expect(stderr).toMatch(/the summarizer ollama:qwen3:8b never answered \(\d+ failed calls\)/);
  });

  it('exits 2 for an unknown command or option', () => {
    expect(ctxkit('compress', 'x').code).toBe(2);
    const stray = ctxkit('threshold', '--window', '1000', '--demo');
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('threshold does not take --demo');
  });
});
