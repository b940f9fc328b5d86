import { mkdirSync, mkdtempSync as makeTemporary, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { minVersion } from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { enginesProblems } from './engines.mjs';
import { readRuntimes } from './install-runtimes.mjs';
import { differingResults, exampleFileFor, peerPins, preflight, publishedPackages, runExamples } from './run.mjs';

const examples = join(import.meta.dirname, 'examples');
const temporary: string[] = [];
const mkdtempSync = (prefix: string) => {
  const dir = makeTemporary(prefix);
  temporary.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
const floor = minVersion(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')).engines.node)?.version ?? '';
const testedNode = [
  process.versions.node,
  ...Object.entries(readRuntimes())
    .filter(([name]) => name.startsWith('node-'))
    .map(([, spec]) => spec.version),
];

describe('smoke examples', () => {
  it('exist for every published package, and only for published packages', () => {
    const names = publishedPackages().map(({ name }) => name);
    expect(names).toContain('@ctxkit/core');
    expect(names).toContain('ctxkit');
    const files = readdirSync(examples).filter((file) => file.endsWith('.mjs') && !file.startsWith('_'));
    expect(files.sort()).toEqual(names.map((name) => exampleFileFor(name, examples).slice(examples.length + 1)).sort());
  });

  it('stop before running when a package has no example or no build', () => {
    const root = mkdtempSync(join(tmpdir(), 'ctxkit-smoke-test-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'index.ts'), 'export {};');
    const problems = preflight([{ name: '@ctxkit/not-there', dir: root }], examples);
    expect(problems).toEqual([
      expect.stringMatching(/^@ctxkit\/not-there: no smoke example; add .*examples\/not-there\.mjs$/),
      expect.stringMatching(/^@ctxkit\/not-there: not built \(.*dist\/index\.js is missing\); run `npx -y pnpm@12\.4\.2 build`$/),
    ]);
  });
});

describe('peerPins', () => {
  const manifestOf = (name: string) => publishedPackages().find((entry) => entry.name === name)!.manifest as { devDependencies: Record<string, string> };

  it("installs the adapters' frameworks at the versions their tests run against, with the peers those need", () => {
    const { pins, problems } = peerPins(publishedPackages());
    expect(problems).toEqual([]);
    const aiSdk = manifestOf('@ctxkit/ai-sdk').devDependencies;
    const langchain = manifestOf('@ctxkit/langchain').devDependencies;
    expect(pins).toMatchObject({ ai: aiSdk.ai, '@ai-sdk/provider': aiSdk['@ai-sdk/provider'], '@langchain/core': langchain['@langchain/core'], langchain: langchain.langchain });
    // zod is a peer of ai, not of the adapter: found through the installed ai's manifest.
    expect(pins.zod).toBe(aiSdk.zod);
    expect(Object.values(pins).every((version) => /^\d+\.\d+\.\d+$/.test(version))).toBe(true);
  });

  it('names a peer without an exact tested version, and two packages pinning one peer differently', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-peers-'));
    const adapter = (name: string, dev: Record<string, string>) => ({ name, dir, manifest: { peerDependencies: { framework: '^2.0.0' }, devDependencies: dev } });
    expect(peerPins([adapter('@ctxkit/a', { framework: '^2.1.0' })]).problems).toEqual([
      '@ctxkit/a: peer dependency framework needs an exact version in devDependencies (the one it is tested against), found "^2.1.0"',
    ]);
    expect(peerPins([adapter('@ctxkit/a', {})]).problems[0]).toMatch(/found null$/);
    expect(peerPins([adapter('@ctxkit/a', { framework: '2.1.0' }), adapter('@ctxkit/b', { framework: '2.2.0' })]).problems).toEqual([
      '@ctxkit/b: pins framework 2.2.0 but @ctxkit/a pins 2.1.0; test them against one version',
    ]);
    expect(peerPins([adapter('@ctxkit/a', { framework: '2.1.0' }), adapter('@ctxkit/b', { framework: '2.1.0' })])).toEqual({ pins: { framework: '2.1.0' }, problems: [] });
  });
});

describe('runExamples', () => {
  const consumer = mkdtempSync(join(tmpdir(), 'ctxkit-smoke-consumer-'));
  writeFileSync(join(consumer, 'good.mjs'), "console.log('figures 1 2 3');\n");
  writeFileSync(join(consumer, 'bad.mjs'), "console.log('started');\nthrow new Error('the documented result was 42, got 41');\n");
  writeFileSync(join(consumer, 'warns.mjs'), "console.log('figures 1 2 3');\nconsole.error('(node:1) Warning: something on stderr');\n");
  writeFileSync(join(consumer, 'runtime.mjs'), "console.log('figures', process.env.SMOKE_FAKE ?? 'plain');\n");
  const node = (name: string) => ({ name, command: (file: string) => [process.execPath, file] });

  it('prints a PASS line with the figures and a FAIL line with the output, and reports each result', async () => {
    const lines: string[] = [];
    const results = await runExamples({ consumer, packages: ['good', 'bad'], runtimes: [node('node-test')], log: (line: string) => lines.push(line), parallel: 1 });
    expect(results.map(({ name, ok }) => [name, ok])).toEqual([
      ['good', true],
      ['bad', false],
    ]);
    expect(lines[0]).toMatch(/^PASS {2}node-test +good +\d+ ms {2}figures 1 2 3$/);
    expect(lines[1]).toMatch(/^FAIL {2}node-test +bad +exit 1\n/);
    expect(lines[1]).toContain('the documented result was 42, got 41');
  });

  it("skips a Node that the package's engines refuse, and says so", async () => {
    const lines: string[] = [];
    const old = { ...node('node-20.20.2'), node: '20.20.2' };
    const current = { ...node('node-22.23.5'), node: '22.23.5' };
    const results = await runExamples({ consumer, packages: ['good'], runtimes: [old, current], engines: { good: '>=22' }, log: (line: string) => lines.push(line) });
    expect(results.map((result) => result.runtime)).toEqual(['node-22.23.5']);
    expect(lines[0]).toMatch(/^SKIP {2}node-20\.20\.2 +good +engines\.node is ">=22"$/);
  });

  it('takes the figures from stdout, never from a warning on stderr', async () => {
    const lines: string[] = [];
    const results = await runExamples({ consumer, packages: ['warns'], runtimes: [node('node-test')], log: (line: string) => lines.push(line) });
    expect(results[0]).toMatchObject({ ok: true, figures: 'figures 1 2 3' });
    expect(lines[0]).toMatch(/ {2}figures 1 2 3$/);
  });

  it('fails a package whose figures differ between runtimes, naming both', async () => {
    const fake = { name: 'other-runtime', command: (file: string) => ['/usr/bin/env', 'SMOKE_FAKE=changed', process.execPath, file] };
    const results = await runExamples({ consumer, packages: ['good', 'runtime'], runtimes: [node('node-test'), fake], log: () => {}, parallel: 2 });
    expect(results.every((result) => result.ok)).toBe(true);
    const differences = differingResults(results);
    expect(differences).toHaveLength(1);
    expect(differences[0]).toMatch(/^runtime: different results across runtimes\n/);
    expect(differences[0]).toContain('figures plain');
    expect(differences[0]).toContain('figures changed');
    expect(results.filter((result) => !result.ok).map((result) => result.name)).toEqual(['runtime', 'runtime']);
  });
});

/** Static imports of Node built-ins in the files an entry reaches through relative imports. */
function nodeBuiltinsReached(entry: string): string[] {
  const seen = new Set<string>();
  const found = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(import|export)\s(type\s)?[^;]*?\sfrom\s+'([^']+)'/gm)) {
      if (match[2]) continue; // type-only: erased, loads nothing
      const specifier = match[3]!;
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else if (specifier.startsWith('node:') || builtinModules.includes(specifier)) found.add(`${specifier} (${file.slice(file.indexOf('src/'))})`);
    }
  };
  visit(entry);
  return [...found];
}

describe('browser-safe entries', () => {
  // A file store and a test kit are Node's by nature; every other entry must load in a browser, where a
  // Node built-in is needed it is imported dynamically on the path that uses it.
  const nodeOnly = ['@ctxkit/store', '@ctxkit/testkit'];

  it('no package entry but the file store and the test kit imports a Node built-in statically', () => {
    const offending = publishedPackages()
      .filter(({ name }) => !nodeOnly.includes(name))
      .map(({ name, dir }) => [name, nodeBuiltinsReached(join(dir, 'src', 'index.ts'))] as const)
      .filter(([, builtins]) => builtins.length > 0);
    expect(offending).toEqual([]);
  });

  it('finds a static Node import through re-exports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-browser-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'index.ts'), "export { read } from './read.ts';\n");
    writeFileSync(
      join(dir, 'src', 'read.ts'),
      "import { readFileSync } from 'node:fs';\nimport type { Stats } from 'fs';\nexport const read = () => readFileSync('x');\nexport const later = () => import('node:path');\n",
    );
    expect(nodeBuiltinsReached(join(dir, 'src', 'index.ts'))).toEqual(['node:fs (src/read.ts)']);
  });
});

describe('engines', () => {
  it('every published package declares the Node it is tested on and its dependencies accept', () => {
    expect(enginesProblems(publishedPackages(), testedNode, floor)).toEqual([]);
  });

  it('catches a package that claims an older Node than CI runs on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-engines-'));
    expect(enginesProblems([{ name: '@ctxkit/old', dir, manifest: { engines: { node: '>=18' } } }], ['20.20.2'], '20.19.0')).toEqual([
      '@ctxkit/old: engines.node ">=18" admits Node 18.0.0, older than any CI runs on (20.19.0 and newer)',
    ]);
  });

  it('catches a package that admits Node 20 while a dependency needs 22 (as the AI SDK 7 does)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-engines-'));
    mkdirSync(join(dir, 'node_modules', 'ai'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'ai', 'package.json'), JSON.stringify({ name: 'ai', engines: { node: '>=22' } }));
    const adapter = (range: string | undefined) => ({ name: '@ctxkit/ai-sdk', dir, manifest: { ...(range ? { engines: { node: range } } : {}), dependencies: { ai: '7.0.0' } } });
    expect(enginesProblems([adapter('>=20.19')], ['20.20.2', '22.23.5', '24.22.3'], '20.19.0')).toEqual([
      '@ctxkit/ai-sdk: engines.node ">=20.19" admits Node 20.19.0, 20.20.2, but ai needs ">=22"; raise the package\'s engines.node',
    ]);
    expect(enginesProblems([adapter('>=22')], ['20.20.2', '22.23.5', '24.22.3'], '20.19.0')).toEqual([]);
    expect(enginesProblems([adapter(undefined)], ['20.20.2'], '20.19.0')[0]).toMatch(/^@ctxkit\/ai-sdk: package\.json needs "engines"/);
    expect(enginesProblems([adapter('>=26')], ['20.20.2', '22.23.5', '24.22.3'], '20.19.0')[0]).toMatch(/admits none of the Node versions CI tests/);
  });

  it('runtimes.json pins exact versions of packages from the npm registry', () => {
    const runtimes = JSON.parse(readFileSync(join(import.meta.dirname, 'runtimes.json'), 'utf8'));
    for (const [name, spec] of Object.entries(readRuntimes())) {
      expect(spec.version, name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(runtimes[name].package, name).toBeTruthy();
    }
  });
});
