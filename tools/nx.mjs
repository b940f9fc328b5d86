#!/usr/bin/env node
// Runs nx with tools/bin first on PATH, so the package scripts nx starts with `pnpm run` find the
// workspace's pinned pnpm even where no pnpm is installed globally (see tools/bin/pnpm).
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const env = {
  ...process.env,
  PATH: `${join(root, 'tools', 'bin')}${delimiter}${process.env.PATH ?? ''}`,
  NX_NO_CLOUD: 'true',
  ...(process.env.CI ? { NX_DAEMON: 'false' } : {}),
};
const result = spawnSync(join(root, 'node_modules', '.bin', 'nx'), process.argv.slice(2), { stdio: 'inherit', env });
process.exit(result.status ?? 1);
