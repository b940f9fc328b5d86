import { defineConfig, type Options } from 'tsup';

/**
 * The one tsup configuration every package builds with: ESM only, declarations, source maps.
 * Declarations are built against the dependencies' published types, not their sources, so the
 * `@ctxkit/source` condition is switched off for the dts pass.
 */
export function createTsupConfig(overrides: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    target: 'es2022',
    platform: 'neutral',
    dts: { compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: true,
    treeshake: true,
    splitting: false,
    ...overrides,
  });
}
