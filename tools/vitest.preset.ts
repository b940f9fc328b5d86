import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Options for {@link createVitestConfig}. Type tests (`*.test-d.ts`) are not vitest's: each package's
 * `typecheck` target (`tsc -p tsconfig.json`) compiles `src`, type tests included, and fails on a broken
 * `expectTypeOf` or an unused `@ts-expect-error`. Vitest's typecheck mode ran tsc over the same files a
 * second time (decision 0069).
 */
export interface VitestPresetOptions {
  /**
   * Per-test timeout in milliseconds. Generous: CI runs on a shared 2-core machine where a property test
   * that takes 7 s alone took 38 s under load (it only guards a hang; no test asserts a timing). @default 60000
   */
  testTimeout?: number;
}

/**
 * Whether this run skips the type checks written as runtime tests (`CTXKIT_TYPE_TESTS=0`), such as the
 * tsc run over every README snippet: CI sets it for the second runtime, since types do not depend on the
 * Node version.
 */
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
      testTimeout: options.testTimeout ?? 60_000,
      // The test files of a package share one worker and its module cache (decision 0069): each file
      // in its own fresh process loaded and transformed the same sources, tokenizer ranks and fixtures
      // again, most of the CPU of a short file. A test must not depend on module state another file left.
      isolate: false,
      // Seeds fast-check (CTXKIT_FC_SEED, fixed in CI) and prints the seed of a failing test.
      setupFiles: [fileURLToPath(new URL('./vitest.setup.ts', import.meta.url))],
    },
  });
}
