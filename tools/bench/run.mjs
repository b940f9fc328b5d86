#!/usr/bin/env node
// `pnpm bench [filter]`: runs every benchmark script (`packages/*/bench/*.bench.ts`) whose path
// contains the filter, one after another (never in parallel: they measure time), from sources.
// Each script prints its own markdown tables; results go to docs/benchmarks.md by hand, with the command.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const filter = process.argv[2] ?? '';
const scripts = [];
for (const folder of readdirSync(join(root, 'packages')).sort()) {
  const bench = join(root, 'packages', folder, 'bench');
  if (!existsSync(bench)) continue;
  for (const file of readdirSync(bench).sort()) {
    if (file.endsWith('.bench.ts') && join(folder, file).includes(filter)) scripts.push(join(bench, file));
  }
}
if (scripts.length === 0) {
  console.error(`no benchmark matches ${JSON.stringify(filter)}`);
  process.exit(2);
}
let failed = 0;
for (const script of scripts) {
  console.log(`\n# ${relative(root, script)}\n`);
  const result = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['--conditions=@ctxkit/source', '--expose-gc', script, ...process.argv.slice(3)], {
    stdio: 'inherit',
    cwd: join(script, '..', '..'),
  });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
