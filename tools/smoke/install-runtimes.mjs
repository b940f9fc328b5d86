#!/usr/bin/env node
// Installs the runtimes in runtimes.json from the npm registry where they are missing, into
// .ci/runtimes/<name>-<version>/ (git-ignored; CTXKIT_RUNTIMES overrides the folder), and prints one
// `name=path-to-binary` line per runtime. Uses only `npm pack` (the ordinary client, its cache and its
// integrity check) and `tar`, so it runs on the machine's Node 20 with nothing else installed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..', '..');

/** The pinned runtimes: name → { package, version, bin }. */
export function readRuntimes() {
  const all = JSON.parse(readFileSync(join(import.meta.dirname, 'runtimes.json'), 'utf8'));
  delete all.$comment;
  return all;
}

/** Where the runtimes are kept: CTXKIT_RUNTIMES, or .ci/runtimes in the checkout. */
export function runtimesDir() {
  return resolve(process.env.CTXKIT_RUNTIMES ?? join(root, '.ci', 'runtimes'));
}

/** The binary of one runtime, installing it first when it is missing (a marker file says the unpack finished). */
export function installRuntime(name, spec, dir = runtimesDir()) {
  const home = join(dir, name, spec.version);
  const binary = join(home, spec.bin);
  if (existsSync(join(home, '.installed')) && existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(dir, '.download-'));
  try {
    execFileSync('npm', ['pack', `${spec.package}@${spec.version}`, '--pack-destination', work, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${spec.package}@${spec.version} wrote no tarball`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1']);
    rmSync(home, { recursive: true, force: true });
    mkdirSync(dirname(home), { recursive: true });
    renameSync(unpacked, home);
    const version = execFileSync(binary, ['--version'], { encoding: 'utf8' });
    if (!version.includes(spec.version)) throw new Error(`${binary} --version says ${version.trim()}, expected ${spec.version}`);
    writeFileSync(join(home, '.installed'), `${spec.package}@${spec.version}\n`);
    console.error(`installed ${spec.package}@${spec.version} into ${home}`);
    return binary;
  } catch (error) {
    throw new Error(`[ctxkit:runtimes] could not install ${name} (${spec.package}@${spec.version}): ${error.message}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = process.argv.slice(2);
  const runtimes = readRuntimes();
  for (const name of wanted) if (!runtimes[name]) throw new Error(`[ctxkit:runtimes] unknown runtime "${name}"; known: ${Object.keys(runtimes).join(', ')}`);
  for (const [name, spec] of Object.entries(runtimes)) {
    if (wanted.length === 0 || wanted.includes(name)) console.log(`${name}=${installRuntime(name, spec)}`);
  }
}
