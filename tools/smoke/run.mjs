#!/usr/bin/env node
// Smoke test of every published package as a user gets it: packs each built package (pnpm pack, so
// workspace:* becomes a version), installs the tarballs with npm into a fresh folder, then runs
// tools/smoke/examples/<package>.mjs (the package's README example on small data, with its documented
// results checked) on each runtime. One PASS/FAIL line per runtime per package; exit 1 on any failure.
//
//   node tools/smoke/run.mjs [runtime...]   runtimes: node (this Node) and the names in runtimes.json;
//                                           default: all of them. Needs `pnpm build` first.
//   CTXKIT_SMOKE_KEEP=1 keeps the folder with the installed packages, to rerun an example by hand.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { installRuntime, readRuntimes } from './install-runtimes.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const examplesDir = join(import.meta.dirname, 'examples');

/** Every package that is published (not private), with its folder. */
export function publishedPackages(repositoryRoot = root) {
  const packagesDir = join(repositoryRoot, 'packages');
  return readdirSync(packagesDir)
    .filter((folder) => existsSync(join(packagesDir, folder, 'package.json')))
    .map((folder) => ({ dir: join(packagesDir, folder), manifest: JSON.parse(readFileSync(join(packagesDir, folder, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private)
    .map(({ dir, manifest }) => ({ name: manifest.name, dir, manifest }));
}

/** The example file of a package: examples/core.mjs for @ctxkit/core, examples/ctxkit.mjs for ctxkit. */
export function exampleFileFor(name, dir = examplesDir) {
  return join(dir, `${name.replace(/^@ctxkit\//, '')}.mjs`);
}

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** Problems that stop the smoke test before it starts: a package without an example, or without a fresh build. */
export function preflight(packages, dir = examplesDir) {
  const problems = [];
  for (const { name, dir: packageDir } of packages) {
    if (!existsSync(exampleFileFor(name, dir))) problems.push(`${name}: no smoke example; add ${relative(root, exampleFileFor(name, dir))}`);
    const built = join(packageDir, 'dist', 'index.js');
    if (!existsSync(built)) problems.push(`${name}: not built (${relative(root, built)} is missing); run \`npx -y pnpm@12.4.2 build\``);
    else if (newestMtime(join(packageDir, 'src')) > statSync(built).mtimeMs) problems.push(`${name}: dist is older than src; run \`npx -y pnpm@12.4.2 build\``);
  }
  return problems;
}

/**
 * The frameworks the adapters plug into, at the versions they are tested against: each package's
 * peerDependencies at the exact version of its devDependencies, and the peers those need in turn (zod for
 * `ai`) when the package pins them too. Left alone, npm would install the newest version the peer range
 * admits. Resolves to `{ pins, problems }`; a peer without an exact devDependency, or two packages pinning
 * one peer differently, is a problem.
 */
export function peerPins(packages) {
  const pins = {};
  const pinnedBy = {};
  const problems = [];
  for (const { name, dir, manifest } of packages) {
    const dev = manifest.devDependencies ?? {};
    const queue = Object.keys(manifest.peerDependencies ?? {}).map((peer) => ({ peer, direct: true }));
    const seen = new Set();
    while (queue.length > 0) {
      const { peer, direct } = queue.shift();
      if (seen.has(peer)) continue;
      seen.add(peer);
      const version = dev[peer];
      if (version === undefined || semver.valid(version) === null) {
        if (direct) problems.push(`${name}: peer dependency ${peer} needs an exact version in devDependencies (the one it is tested against), found ${JSON.stringify(version ?? null)}`);
        continue;
      }
      if (pins[peer] !== undefined && pins[peer] !== version) {
        problems.push(`${name}: pins ${peer} ${version} but ${pinnedBy[peer]} pins ${pins[peer]}; test them against one version`);
        continue;
      }
      pins[peer] = version;
      pinnedBy[peer] ??= name;
      const installed = join(dir, 'node_modules', peer, 'package.json');
      if (!existsSync(installed)) continue;
      const peerManifest = JSON.parse(readFileSync(installed, 'utf8'));
      const optional = peerManifest.peerDependenciesMeta ?? {};
      for (const next of Object.keys(peerManifest.peerDependencies ?? {})) if (!optional[next]?.optional) queue.push({ peer: next, direct: false });
    }
  }
  return { pins, problems };
}

/** Packs every package and installs the tarballs into a new folder with npm, as a user would. */
function installConsumer(packages, consumer, pins = {}) {
  const tarballs = join(consumer, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const pnpm = join(root, 'tools', 'bin', 'pnpm');
  const files = {};
  for (const { name, dir } of packages) {
    const before = new Set(readdirSync(tarballs));
    execFileSync(pnpm, ['pack', '--pack-destination', tarballs], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    const file = readdirSync(tarballs).find((entry) => !before.has(entry));
    files[name] = `file:./tarballs/${file}`;
  }
  // overrides: the packages' own dependencies on each other (version 0.0.0 after packing) resolve to these
  // tarballs, never to whatever the registry holds under that name.
  const devVitest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.vitest;
  writeFileSync(
    join(consumer, 'package.json'),
    `${JSON.stringify({ name: 'ctxkit-smoke', private: true, type: 'module', dependencies: { ...pins, ...files, vitest: devVitest }, overrides: files }, null, 2)}\n`,
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: consumer, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** How to run a file on each runtime. `node` is the Node running this script. */
export function runtimeCommands(names) {
  const pinned = readRuntimes();
  return names.map((name) => {
    if (name === 'node') return { name: `node-${process.versions.node}`, node: process.versions.node, command: (file) => [process.execPath, file] };
    const spec = pinned[name];
    if (!spec) throw new Error(`[ctxkit:smoke] unknown runtime "${name}"; known: node, ${Object.keys(pinned).join(', ')}`);
    const binary = installRuntime(name, spec);
    const label = `${name.replace(/-\d+$/, '')}-${spec.version}`;
    if (name === 'deno') return { name: label, command: (file) => [binary, 'run', '--allow-all', '--quiet', '--node-modules-dir=manual', file] };
    if (name === 'bun') return { name: label, command: (file) => [binary, 'run', file] };
    return { name: label, node: spec.version, command: (file) => [binary, file] };
  });
}

function runOne(argv, cwd, timeoutMs) {
  return new Promise((done) => {
    const started = performance.now();
    // No FORCE_COLOR (Nx sets it): beside NO_COLOR it makes Node print a warning.
    const { FORCE_COLOR: _forced, ...env } = process.env;
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env: { ...env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // The figures line is the last line the example printed on stdout; warnings on stderr never count.
      const figures = stdout.trim().split('\n').at(-1) ?? '';
      done({ ok: code === 0, code: code ?? signal, output: output.trim(), figures, ms: Math.round(performance.now() - started) });
    });
  });
}

/**
 * Runs every example on every runtime in `consumer` (a folder where the packages are installed), two at a
 * time, printing one line each as it finishes; skips a Node that a package's `engines[name]` range refuses.
 * Resolves to the results.
 */
export async function runExamples({ consumer, packages, runtimes, engines = {}, log = console.log, timeoutMs = 120_000, parallel = Math.min(2, availableParallelism()) }) {
  const results = [];
  // A Node its engines.node refuses is not supported, so not run (AI SDK 7 adapters need Node 22).
  const refuses = (runtime, name) => runtime.node !== undefined && engines[name] !== undefined && !semver.satisfies(runtime.node, engines[name]);
  for (const runtime of runtimes) {
    for (const name of packages) if (refuses(runtime, name)) log(`SKIP  ${runtime.name.padEnd(13)} ${name.padEnd(28)} engines.node is "${engines[name]}"`);
  }
  const jobs = runtimes.flatMap((runtime) => packages.filter((name) => !refuses(runtime, name)).map((name) => ({ runtime, name })));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { runtime, name } = jobs[next++];
      const file = join(consumer, basename(exampleFileFor(name)));
      const result = { runtime: runtime.name, name, ...(await runOne(runtime.command(file), consumer, timeoutMs)) };
      results.push(result);
      if (result.ok) log(`PASS  ${runtime.name.padEnd(13)} ${name.padEnd(28)} ${String(result.ms).padStart(6)} ms  ${result.figures}`);
      else log(`FAIL  ${runtime.name.padEnd(13)} ${name.padEnd(28)} exit ${result.code}\n${result.output.replace(/^/gm, '      ')}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

/**
 * Each example ends with a line of figures (what it measured, never a time), and those must be the same on
 * every runtime: the same package computing different numbers on Bun than on Node is a failure even when
 * each run's own checks pass. Marks such results failed and describes each difference.
 */
export function differingResults(results) {
  const differences = [];
  const byPackage = new Map();
  for (const result of results) if (result.ok) byPackage.set(result.name, [...(byPackage.get(result.name) ?? []), result]);
  for (const [name, runs] of byPackage) {
    const lines = new Set(runs.map((run) => run.figures));
    if (lines.size < 2) continue;
    for (const run of runs) run.ok = false;
    differences.push(`${name}: different results across runtimes\n${runs.map((run) => `      ${run.runtime.padEnd(13)} ${run.figures}`).join('\n')}`);
  }
  return differences;
}

async function main() {
  const started = performance.now();
  const pinned = Object.keys(readRuntimes());
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['node', ...pinned];
  const packages = publishedPackages();
  const { pins, problems: peerProblems } = peerPins(packages);
  const problems = [...preflight(packages), ...peerProblems];
  if (problems.length > 0) {
    for (const problem of problems) console.error(`[ctxkit:smoke] ${problem}`);
    console.log(`smoke: FAILED before running (${problems.length} problem${problems.length === 1 ? '' : 's'} above)`);
    process.exit(1);
  }
  const runtimes = runtimeCommands(names);
  const consumer = mkdtempSync(join(tmpdir(), 'ctxkit-smoke-'));
  try {
    if (Object.keys(pins).length > 0)
      console.log(
        `smoke: peers installed at the tested versions: ${Object.entries(pins)
          .map(([peer, version]) => `${peer}@${version}`)
          .join(', ')}`,
      );
    installConsumer(packages, consumer, pins);
    cpSync(examplesDir, consumer, { recursive: true });
    // The examples' small data: the packages' recorded real responses (never published, so copied here).
    for (const { dir } of packages) {
      const fixtures = join(dir, 'src', '__fixtures__');
      if (existsSync(fixtures)) cpSync(fixtures, join(consumer, 'fixtures', basename(dir)), { recursive: true });
    }
    const engines = Object.fromEntries(packages.map(({ name, manifest }) => [name, manifest.engines?.node]));
    const results = await runExamples({ consumer, packages: packages.map(({ name }) => name), runtimes, engines });
    for (const difference of differingResults(results)) console.log(`FAIL  ${difference}`);
    const failed = results.filter((result) => !result.ok);
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(
      `smoke: ${failed.length === 0 ? 'passed' : 'FAILED'}, ${results.length - failed.length} of ${results.length} ` +
        `(${packages.length} packages on ${runtimes.map((runtime) => runtime.name).join(', ')}) in ${seconds} s`,
    );
    if (failed.length > 0) {
      for (const result of failed) console.log(`  failed: ${result.name} on ${result.runtime}`);
      process.exitCode = 1;
    }
  } finally {
    if (process.env.CTXKIT_SMOKE_KEEP) console.log(`smoke: kept the installed packages in ${consumer}`);
    else rmSync(consumer, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
