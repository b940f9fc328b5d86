#!/usr/bin/env node
// `pnpm release:dry`: builds every package, then shows what `changeset publish` would publish:
// each public package with its version and the files in its tarball, and the pending changesets.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const pnpm = join(root, 'tools', 'bin', 'pnpm');
execFileSync('node', [join(root, 'tools', 'nx.mjs'), 'run-many', '-t', 'build', '--outputStyle=static'], { stdio: ['ignore', 'ignore', 'inherit'] });

const rows = [];
for (const folder of readdirSync(join(root, 'packages')).sort()) {
  const dir = join(root, 'packages', folder);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.private) continue;
  const packed = JSON.parse(execFileSync(pnpm, ['pack', '--dry-run', '--json'], { cwd: dir, encoding: 'utf8' }));
  rows.push({ name: manifest.name, version: manifest.version, files: packed.files.map((file) => file.path) });
}
const width = Math.max(...rows.map((row) => row.name.length));
console.log(`Would publish ${rows.length} packages (one fixed version, .changeset/config.json):\n`);
for (const row of rows) {
  console.log(
    `${row.name.padEnd(width)}  ${row.version}  ${row.files.length} files: ${row.files.filter((file) => !file.startsWith('src/')).join(', ')} + ${row.files.filter((file) => file.startsWith('src/')).length} sources`,
  );
}
console.log('\nPending changesets:');
try {
  console.log(execFileSync(join(root, 'node_modules', '.bin', 'changeset'), ['status'], { cwd: root, encoding: 'utf8' }));
} catch (error) {
  // `changeset status` exits 1 when packages changed without a changeset; that is information here.
  console.log(error.stdout || error.message);
}
