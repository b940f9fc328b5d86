import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** Options for {@link createVitestConfig}. */
export interface VitestPresetOptions {
  /**
   * Run `*.test-d.ts` type tests too. @default false. `CTXKIT_TYPE_TESTS=0` turns them off for a run:
   * CI sets it for the second runtime, since types do not depend on the Node version.
   */
  typecheck?: boolean;
  /** Per-test timeout in milliseconds. @default 20000 */
  testTimeout?: number;
}

/** Whether this run skips type tests (`CTXKIT_TYPE_TESTS=0`). */
export function typeTestsOff(): boolean {
  return process.env.CTXKIT_TYPE_TESTS === '0';
}

/**
 * The one vitest configuration every package tests with. Workspace packages resolve each other
 * through the `@ctxkit/source` export condition, so tests run on sources without a build.
 */
export function createVitestConfig(options: VitestPresetOptions = {}) {
  const conditions = ['@ctxkit/source', ...defaultServerConditions];
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@ctxkit/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: options.testTimeout ?? 20_000,
      // Seeds fast-check (CTXKIT_FC_SEED, fixed in CI) and prints the seed of a failing test.
      setupFiles: [fileURLToPath(new URL('./vitest.setup.ts', import.meta.url))],
      ...(options.typecheck && !typeTestsOff() ? { typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' } } : {}),
    },
  });
}
