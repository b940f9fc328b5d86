import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkInstallLines, checkSnippets, extractSnippets } from './check-snippets.mjs';
import { typeTestsOff } from './vitest.preset.ts';

const fence = '```';

describe('extractSnippets', () => {
  it('finds ts and typescript blocks with the line their code starts on, and skips other languages and no-check', () => {
    const markdown = [
      '# Title',
      '',
      `${fence}ts`,
      'const a = 1;',
      fence,
      '',
      `${fence}sh`,
      'npm test',
      fence,
      `${fence}typescript title="x"`,
      'const b = 2;',
      'const c = 3;',
      fence,
      `${fence}ts no-check`,
      'broken(',
      fence,
    ].join('\n');
    expect(extractSnippets(markdown)).toEqual([
      { line: 4, code: 'const a = 1;', prelude: '' },
      { line: 11, code: 'const b = 2;\nconst c = 3;', prelude: '' },
    ]);
  });

  it('reads the prelude from an HTML comment right above the fence, and only from there', () => {
    const markdown = [
      '<!-- snippet-prelude: declare const history: string[]; -->',
      `${fence}ts`,
      'history.length;',
      fence,
      '<!-- snippet-prelude: declare const x: 1; -->',
      '',
      `${fence}ts`,
      'x;',
      fence,
    ].join('\n');
    expect(extractSnippets(markdown)).toEqual([
      { line: 3, code: 'history.length;', prelude: 'declare const history: string[];' },
      { line: 8, code: 'x;', prelude: '' },
    ]);
  });

  it('reads indented blocks (inside a list) without their indentation', () => {
    expect(extractSnippets(['- step', `  ${fence}ts`, '  const a = 1;', `  ${fence}`].join('\n'))).toEqual([{ line: 3, code: 'const a = 1;', prelude: '' }]);
  });
});

describe('checkSnippets', () => {
  const folder = mkdtempSync(join(import.meta.dirname, '.readme-snippets-test-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reports a type error at its README line and column, and passes a correct block', { timeout: 120_000 }, () => {
    const readme = join(folder, 'README.md');
    writeFileSync(
      readme,
      [
        '# Example',
        `${fence}ts`,
        "import { textOf } from '@ctxkit/core';",
        "const text: string = textOf('hi');",
        fence,
        '',
        `${fence}ts`,
        "import { textOf } from '@ctxkit/core';",
        'const count: number = textOf([]);',
        fence,
        '<!-- snippet-prelude: declare const history: import("@ctxkit/core").Message[]; -->',
        `${fence}ts`,
        'console.log(history.length);',
        fence,
      ].join('\n'),
    );
    const { snippets, errors } = checkSnippets([readme], { preludesAllowedIn: [readme] });
    expect(snippets).toBe(3);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/README\.md:9:7: error TS2322: Type 'string' is not assignable to type 'number'/);
  });

  it('reports a hidden prelude at its line, outside the READMEs still allowed one', { timeout: 120_000 }, () => {
    const readme = join(folder, 'README.md');
    writeFileSync(readme, ['# Example', '<!-- snippet-prelude: declare const history: string[]; -->', `${fence}ts`, 'console.log(history.length);', fence].join('\n'));
    const { errors } = checkSnippets([readme]);
    expect(errors).toEqual([expect.stringMatching(/README\.md:2:1: hidden snippet-prelude: declare what the block uses inside it/)]);
  });

  // A type check: CI runs it on Node 20 and skips it on the second runtime (CTXKIT_TYPE_TESTS=0), where types are the same.
  // Under the repository's Bundler resolution and under NodeNext, which a user's tsconfig often has (a
  // default import of a CommonJS class, `import Ajv from 'ajv'`, is then the module object).
  it.skipIf(typeTestsOff()).each(['bundler', 'nodenext'] as const)(
    "every ts block of the repository's READMEs compiles under the strict tsconfig, moduleResolution %s, with no hidden prelude",
    { timeout: 300_000 },
    (moduleResolution) => {
      const { snippets, errors } = checkSnippets(undefined, { moduleResolution });
      expect(snippets).toBeGreaterThan(30);
      expect(errors).toEqual([]);
    },
  );
});

describe('checkInstallLines', () => {
  const folder = mkdtempSync(join(import.meta.dirname, '.readme-install-test-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reports a package a snippet imports that no install line names, at the import, once', () => {
    const readme = join(folder, 'README.md');
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: '@ctxkit/provider-x' }));
    writeFileSync(
      readme,
      [
        '```sh',
        'npm install @ctxkit/provider-x',
        '```',
        `${fence}ts`,
        "import { xProvider } from '@ctxkit/provider-x';",
        "import { fileStore } from '@ctxkit/store';",
        "import { readFile } from 'node:fs/promises';",
        "import { other } from '@ctxkit/store/sub';",
        fence,
      ].join('\n'),
    );
    expect(checkInstallLines([readme])).toEqual([expect.stringMatching(/README\.md:6:1: a snippet imports @ctxkit\/store, which no install line of this README names/)]);
    writeFileSync(readme, readFileSync(readme, 'utf8').replace('npm install @ctxkit/provider-x', 'npm install @ctxkit/provider-x @ctxkit/store@^1'));
    expect(checkInstallLines([readme])).toEqual([]);
  });

  it("every package README's install lines name every package its snippets import", () => {
    expect(checkInstallLines()).toEqual([]);
  });
});
