#!/usr/bin/env node
// Creates a package in the house layout: `pnpm new-package NAME [--deps core,threshold] [--description "..."]`.
// NAME is the part after `@ctxkit/` (or `ctxkit` for the bundle). Refuses to overwrite a package.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { allowedFor } from './check-boundaries.mjs';

/** The files of a new package, as a map from relative path to content. */
export function packageFiles({ name, description, deps = [] }) {
  const fullName = name === 'ctxkit' ? 'ctxkit' : `@ctxkit/${name}`;
  const dependencies = Object.fromEntries(deps.map((dep) => [dep === 'ctxkit' ? dep : `@ctxkit/${dep}`, 'workspace:*']));
  const manifest = {
    name: fullName,
    version: '0.0.0',
    description,
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    exports: {
      '.': {
        '@ctxkit/source': './src/index.ts',
        types: './dist/index.d.ts',
        default: './dist/index.js',
      },
      './package.json': './package.json',
    },
    types: './dist/index.d.ts',
    files: ['dist', 'src', '!src/**/*.test.ts', '!src/**/*.test-d.ts', '!src/**/__fixtures__'],
    engines: { node: '>=20.19' },
    scripts: {
      build: 'tsup',
      test: 'vitest run',
      typecheck: 'tsc -p tsconfig.json',
      lint: 'biome lint --error-on-warnings src && node ../../tools/check-boundaries.mjs',
      'check-package': 'node ../../tools/check-package.mjs',
    },
    dependencies,
    publishConfig: { access: 'public' },
  };
  const title = fullName;
  return {
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify({ extends: '../../tsconfig.base.json', include: ['src', 'bench', '*.config.ts'] }, null, 2)}\n`,
    'tsup.config.ts': "import { createTsupConfig } from '../../tools/tsup.preset.ts';\n\nexport default createTsupConfig();\n",
    'vitest.config.ts': "import { createVitestConfig } from '../../tools/vitest.preset.ts';\n\nexport default createVitestConfig();\n",
    'README.md': `# ${title}\n\n${description}\n\n\`\`\`sh\nnpm install ${fullName}\n\`\`\`\n\n## Example\n\n\`\`\`ts\nimport {} from '${fullName}';\n\`\`\`\n`,
    'src/index.ts': `/**\n * ${description}\n * @packageDocumentation\n */\nexport {};\n`,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { deps: { type: 'string', default: '' }, description: { type: 'string', default: '' } },
  });
  const name = positionals[0];
  if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) {
    console.error('usage: pnpm new-package NAME [--deps core,threshold] [--description "..."]  (NAME in kebab-case)');
    process.exit(2);
  }
  const deps = values.deps
    ? values.deps
        .split(',')
        .map((dep) => dep.trim())
        .filter(Boolean)
    : [];
  const fullName = name === 'ctxkit' ? 'ctxkit' : `@ctxkit/${name}`;
  const allowed = allowedFor(fullName);
  if (!allowed) {
    console.error(`[ctxkit:new-package] ${fullName} is not in tools/boundaries.json; add it there first (DESIGN.md §2)`);
    process.exit(2);
  }
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages', name);
  if (existsSync(root)) {
    console.error(`[ctxkit:new-package] packages/${name} exists already; nothing written`);
    process.exit(2);
  }
  for (const [path, content] of Object.entries(packageFiles({ name, description: values.description || `ctxkit ${name}.`, deps }))) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  console.log(`created packages/${name}; run pnpm install to link it`);
}
