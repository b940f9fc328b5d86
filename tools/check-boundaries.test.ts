import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedFor, findViolations, importsOf } from './check-boundaries.mjs';
import { packageFiles } from './new-package.mjs';

describe('check-boundaries', () => {
  it('reads static, type-only, side-effect and dynamic imports and re-exports', () => {
    const text = [
      "import { a } from '@ctxkit/core';",
      "import type { B } from '@ctxkit/tokens';",
      "export { c } from './c.ts';",
      "import '@ctxkit/side-effect';",
      "const d = await import('@ctxkit/provider-openai');",
    ].join('\n');
    expect(importsOf(text)).toEqual(['@ctxkit/core', '@ctxkit/tokens', './c.ts', '@ctxkit/side-effect', '@ctxkit/provider-openai']);
  });

  it('follows DESIGN.md §2, with prefix patterns for tiers and providers', () => {
    expect(allowedFor('@ctxkit/tier-images')).toContain('@ctxkit/tokens');
    expect(allowedFor('@ctxkit/provider-ollama')).toEqual(['@ctxkit/core', '@ctxkit/provider-utils']);
    expect(allowedFor('@ctxkit/unknown')).toBeUndefined();
  });

  const check = (name: string, files: Record<string, string>, dependencies: Record<string, string> = {}) =>
    findViolations({ name, root: '/repo/packages/x', dependencies, files: Object.entries(files).map(([path, text]) => ({ path, text })) });

  it('fails the engine importing a tier, and a tier importing the engine or another tier', () => {
    expect(check('@ctxkit/engine', { 'src/a.ts': "import { x } from '@ctxkit/tier-trim';" })).toEqual(['src/a.ts: imports @ctxkit/tier-trim, which @ctxkit/engine may not import (DESIGN.md §2)']);
    expect(check('@ctxkit/tier-trim', { 'src/a.ts': "import { x } from '@ctxkit/engine';\nimport { y } from '@ctxkit/tier-summary/x';" })).toHaveLength(2);
    expect(check('@ctxkit/core', {}, { '@ctxkit/threshold': 'workspace:*' })).toEqual(['@ctxkit/core: package.json depends on @ctxkit/threshold, which DESIGN.md §2 does not allow']);
  });

  it('lets tests use testkit but not sources, and forbids reaching into another package by path', () => {
    expect(check('@ctxkit/tier-images', { 'src/a.test.ts': "import { runTierConformance } from '@ctxkit/testkit';" })).toEqual([]);
    expect(check('@ctxkit/tier-images', { 'src/a.ts': "import { runTierConformance } from '@ctxkit/testkit';" })).toHaveLength(1);
    expect(check('@ctxkit/tier-images', { 'src/a.ts': "import { x } from '../../core/src/index.ts';" })).toEqual([
      'src/a.ts: imports ../../core/src/index.ts, outside its own package; import the package instead',
    ]);
  });

  it('lets the ctxkit bundle import everything', () => {
    expect(check('ctxkit', { 'src/a.ts': "import '@ctxkit/engine';\nimport '@ctxkit/provider-openai';" })).toEqual([]);
  });

  it('exits non-zero from the command line on a violation', () => {
    const root = mkdtempSync(join(tmpdir(), 'boundaries-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: '@ctxkit/core' }));
    writeFileSync(join(root, 'src', 'index.ts'), "export { x } from '@ctxkit/engine';");
    expect(() => execFileSync('node', [join(import.meta.dirname, 'check-boundaries.mjs'), root], { stdio: 'pipe' })).toThrow(/imports @ctxkit\/engine/);
  });
});

describe('new-package generator', () => {
  it('lays out a package in the house style', () => {
    const files = packageFiles({ name: 'tier-demo', description: 'A demo tier.', deps: ['core', 'tokens'] });
    expect(Object.keys(files).sort()).toEqual(['README.md', 'package.json', 'src/index.ts', 'tsconfig.json', 'tsup.config.ts', 'vitest.config.ts']);
    const manifest = JSON.parse(files['package.json']!);
    expect(manifest).toMatchObject({
      name: '@ctxkit/tier-demo',
      type: 'module',
      sideEffects: false,
      engines: { node: '>=20.19' },
      dependencies: { '@ctxkit/core': 'workspace:*', '@ctxkit/tokens': 'workspace:*' },
    });
    expect(manifest.exports['.']).toEqual({ '@ctxkit/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' });
    expect(Object.keys(manifest.scripts).sort()).toEqual(['build', 'check-package', 'lint', 'test', 'typecheck']);
  });
});
