#!/usr/bin/env node
// Packs the package in the current folder with pnpm (so workspace:* becomes a real version), then
// runs publint --strict and attw (ESM-only profile) on the tarball that would be published.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name) => join(import.meta.dirname, '..', 'node_modules', '.bin', name);
const out = mkdtempSync(join(tmpdir(), 'ctxkit-pack-'));
try {
  execFileSync(join(import.meta.dirname, 'bin', 'pnpm'), ['pack', '--pack-destination', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = join(
    out,
    readdirSync(out).find((file) => file.endsWith('.tgz')),
  );
  execFileSync(bin('publint'), ['run', tarball, '--strict'], { stdio: 'inherit' });
  execFileSync(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji'], { stdio: 'inherit' });
} catch (error) {
  console.error(`[ctxkit:check-package] ${process.cwd()}: ${error.message}`);
  process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
