#!/usr/bin/env node
// Typechecks every ```ts block of README.md and packages/*/README.md under the repository's strict
// tsconfig, so a README example cannot drift from the API. Each block is a module of its own, written
// beside the README it comes from (so it resolves that package's dependencies, and the repository's
// packages from source), and checked in one TypeScript program, under Bundler and under NodeNext module
// resolution (what users' tsconfigs use). Errors are reported at the README line. A snippet declares
// what it uses: a hidden prelude is an error outside `readmesWithPreludes`.
// Run: `node tools/check-snippets.mjs [README paths...]`; exit code 1 when a snippet does not compile.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Per process, so two checks at once (a watch run beside CI) do not write over each other.
const snippetFolder = `.readme-snippets-${process.pid}`;

/**
 * The TypeScript blocks of a markdown text: fenced with ```ts or ```typescript (info words after the
 * language are allowed; a block marked `no-check` is skipped), each with the line its code starts on (1-based)
 * and its prelude: declarations of what the reader already has (`history`, a `response`), given in an HTML
 * comment right above the fence, `<!-- snippet-prelude: declare const history: Message[]; -->`, which
 * the rendered page does not show.
 * @param {string} markdown
 * @returns {{ line: number, code: string, prelude: string }[]}
 */
export function extractSnippets(markdown) {
  const lines = markdown.split('\n');
  const snippets = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\b(.*)$/.exec(lines[index]);
    if (!open) continue;
    const [, indent, fence, , info] = open;
    const body = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end].trim().startsWith(fence) && lines[end].trim().replace(/[`~]/g, '') === '')) {
      body.push(lines[end].startsWith(indent) ? lines[end].slice(indent.length) : lines[end]);
      end++;
    }
    const before = /^\s*<!--\s*snippet-prelude:([\s\S]*?)-->\s*$/.exec(lines[index - 1] ?? '');
    if (!/\bno-check\b/.test(info)) snippets.push({ line: index + 2, code: body.join('\n'), prelude: before ? before[1].trim() : '' });
    index = end;
  }
  return snippets;
}

/**
 * The READMEs still allowed a hidden prelude (decision 0092): none. A snippet declares what it uses, so a
 * reader can paste it; a prelude is an error (a test can allow one through `preludesAllowedIn`).
 */
/** @type {string[]} */
export const readmesWithPreludes = [];

/** The READMEs checked by default: the repository's and every package's. */
export function defaultReadmes() {
  const packages = join(root, 'packages');
  return [
    join(root, 'README.md'),
    ...readdirSync(packages)
      .map((name) => join(packages, name, 'README.md'))
      .filter((path) => existsSync(path)),
  ];
}

// The root README's snippets import the adapters and the frameworks: they resolve from tools/, whose
// devDependencies hold them. A package README's snippets resolve from the package.
function folderFor(readme) {
  return resolve(dirname(readme)) === root ? join(root, 'tools') : dirname(readme);
}

/**
 * Typechecks the snippets of the given READMEs. Returns one line per error, `path:line:column: message`,
 * pointing into the README; a hidden prelude outside `readmesWithPreludes` is an error too.
 * `moduleResolution: 'nodenext'` checks them as a user with a NodeNext tsconfig would (default: the
 * repository's Bundler resolution).
 * @param {string[]} readmes absolute paths
 * @param {{ moduleResolution?: 'bundler' | 'nodenext', preludesAllowedIn?: string[] }} options
 * @returns {{ snippets: number, errors: string[] }}
 */
export function checkSnippets(readmes = defaultReadmes(), options = {}) {
  const files = new Map();
  const folders = new Set();
  const preludeErrors = [];
  const preludesAllowedIn = new Set((options.preludesAllowedIn ?? readmesWithPreludes).map((path) => resolve(root, path)));
  try {
    for (const readme of readmes) {
      const folder = join(folderFor(readme), snippetFolder);
      extractSnippets(readFileSync(readme, 'utf8')).forEach((snippet, index) => {
        if (snippet.prelude && !preludesAllowedIn.has(resolve(readme))) {
          preludeErrors.push(`${relative(root, readme)}:${snippet.line - 2}:1: hidden snippet-prelude: declare what the block uses inside it, so it runs as pasted`);
        }
        if (!folders.has(folder)) {
          rmSync(folder, { recursive: true, force: true });
          mkdirSync(folder, { recursive: true });
          folders.add(folder);
        }
        const file = join(folder, `${relative(root, readme).replace(/[\\/]/g, '_').replace(/\.md$/, '')}-${index + 1}.ts`);
        // `export {}` makes each block a module: top-level await works, and names do not clash across blocks.
        // The prelude goes on the block's first line, after its imports would be hoisted anyway, so line numbers hold.
        writeFileSync(file, `${snippet.prelude ? `${snippet.prelude} ` : ''}${snippet.code}\nexport {};\n`);
        files.set(file, { readme, line: snippet.line });
      });
    }
    if (files.size === 0) return { snippets: 0, errors: preludeErrors };
    const config = join(root, 'tools', snippetFolder, 'tsconfig.json');
    mkdirSync(dirname(config), { recursive: true });
    folders.add(dirname(config));
    // First-party packages resolve from source wherever the snippet sits (a README may show a neighbour package).
    const paths = { ctxkit: ['../../packages/ctxkit/src/index.ts'], '@ctxkit/*': ['../../packages/*/src/index.ts'] };
    const resolution = options.moduleResolution === 'nodenext' ? { module: 'NodeNext', moduleResolution: 'NodeNext' } : {};
    writeFileSync(config, JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { noEmit: true, paths, ...resolution }, files: [...files.keys()] }));
    let output = '';
    try {
      execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config, '--pretty', 'false'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
      if (!output.trim()) throw error;
    }
    const errors = [...preludeErrors];
    for (const line of output.split('\n')) {
      const match = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
      if (!match) {
        if (line.trim() && !line.startsWith(' ')) errors.push(line.trim());
        else if (errors.length > 0 && line.trim()) errors[errors.length - 1] += ` ${line.trim()}`;
        continue;
      }
      const source = files.get(resolve(root, match[1]));
      errors.push(source ? `${relative(root, source.readme)}:${source.line + Number(match[2]) - 1}:${match[3]}: ${match[4]}` : `${match[1]}:${match[2]}:${match[3]}: ${match[4]}`);
    }
    return { snippets: files.size, errors };
  } finally {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

/** The package an import specifier names (`@scope/name`, `name`), or undefined for a relative path or a Node built-in. */
function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) return undefined;
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

/**
 * The packages a README's snippets import that its install lines (`npm install ...` in a sh block) do not
 * name, each reported at the first snippet line importing it. A reader who installs what the README says
 * and pastes a block must have every package it imports: a package's own dependency is not importable
 * under pnpm's strict layout, and a neighbour package (`@ctxkit/store` for `fileStore`) is not there at all.
 * By default the package READMEs: the repository's README installs from a checkout.
 * @param {string[]} readmes absolute paths
 * @returns {string[]} `path:line:1: message` per package missing
 */
export function checkInstallLines(readmes = defaultReadmes().filter((readme) => dirname(readme) !== root)) {
  const errors = [];
  for (const readme of readmes) {
    const markdown = readFileSync(readme, 'utf8');
    const self = existsSync(join(dirname(readme), 'package.json')) ? JSON.parse(readFileSync(join(dirname(readme), 'package.json'), 'utf8')).name : undefined;
    const installed = new Set(
      [...markdown.matchAll(/^\s*(?:npm (?:install|i)|pnpm add|yarn add)\s+(.+)$/gm)].flatMap((match) =>
        match[1]
          .split(/\s+/)
          .filter((word) => word && !word.startsWith('-'))
          .map((word) => word.replace(/(.)@[^/]*$/, '$1')),
      ),
    );
    const reported = new Set();
    for (const snippet of extractSnippets(markdown)) {
      snippet.code.split('\n').forEach((text, offset) => {
        for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
          const name = packageOf(match[1]);
          if (!name || name === self || installed.has(name) || reported.has(name)) continue;
          reported.add(name);
          errors.push(`${relative(root, readme)}:${snippet.line + offset}:1: a snippet imports ${name}, which no install line of this README names`);
        }
      });
    }
  }
  return errors;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const paths = process.argv.slice(2).map((path) => resolve(path));
  let failed = 0;
  const installGaps = checkInstallLines(paths.length > 0 ? paths : undefined);
  for (const error of installGaps) console.error(error);
  failed += installGaps.length;
  for (const moduleResolution of ['bundler', 'nodenext']) {
    const { snippets, errors } = checkSnippets(paths.length > 0 ? paths : undefined, { moduleResolution });
    for (const error of errors) console.error(`${error} (${moduleResolution})`);
    console.log(`[ctxkit:check-snippets] ${snippets} README snippets, moduleResolution ${moduleResolution}: ${errors.length} errors`);
    failed += errors.length;
  }
  process.exitCode = failed > 0 ? 1 : 0;
}
