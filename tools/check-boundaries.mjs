#!/usr/bin/env node
// Fails when a package imports (or declares) a first-party package that DESIGN.md §2 does not allow.
// Run from a package folder (its `lint` target) or with a folder argument.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const rules = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'boundaries.json'), 'utf8'));

function matches(pattern, name) {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

function isFirstParty(specifier) {
  return specifier === 'ctxkit' || specifier.startsWith('ctxkit/') || specifier.startsWith('@ctxkit/');
}

function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The patterns a package may import at run time, or undefined when the table does not name it. */
export function allowedFor(name, table = rules) {
  const exact = table.allowed[name];
  if (exact) return exact;
  const key = Object.keys(table.allowed).find((pattern) => pattern.endsWith('*') && matches(pattern, name));
  return key ? table.allowed[key] : undefined;
}

const importPattern = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** Every module specifier a source text imports or re-exports. */
export function importsOf(text) {
  const found = [];
  for (const match of text.matchAll(importPattern)) found.push(match[1] ?? match[2] ?? match[3]);
  return found;
}

/**
 * Checks one package: its source files and its package.json. Returns one line per violation.
 * @param {{ name: string, root: string, dependencies: Record<string,string>, files: { path: string, text: string }[] }} input
 */
export function findViolations({ name, root, dependencies, files }, table = rules) {
  const allowed = allowedFor(name, table);
  if (!allowed) return [`${name}: not listed in tools/boundaries.json; add it with the packages it may import`];
  const violations = [];
  const permits = (specifier, isTest) => {
    const target = packageOf(specifier);
    if (target === name) return true;
    if (allowed.some((pattern) => matches(pattern, target))) return true;
    return isTest && table.testOnly.some((pattern) => matches(pattern, target));
  };
  for (const dependency of Object.keys(dependencies)) {
    if (isFirstParty(dependency) && !permits(dependency, false)) {
      violations.push(`${name}: package.json depends on ${dependency}, which DESIGN.md §2 does not allow`);
    }
  }
  for (const file of files) {
    const isTest = /\.test(-d)?\.ts$|__fixtures__|\/test\//.test(file.path);
    for (const specifier of importsOf(file.text)) {
      if (isFirstParty(specifier) && !permits(specifier, isTest)) {
        violations.push(`${file.path}: imports ${specifier}, which ${name} may not import (DESIGN.md §2)`);
      } else if (specifier.startsWith('.')) {
        const target = resolve(dirname(join(root, file.path)), specifier);
        if (relative(root, target).startsWith('..')) {
          violations.push(`${file.path}: imports ${specifier}, outside its own package; import the package instead`);
        }
      }
    }
  }
  return violations;
}

function sourceFiles(root, folder) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      if (entry === 'node_modules' || entry === 'dist') continue;
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry)) out.push({ path: relative(root, full), text: readFileSync(full, 'utf8') });
    }
  };
  try {
    walk(join(root, folder));
  } catch {
    // a package without that folder has nothing to check there
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const root = resolve(process.argv[2] ?? '.');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const violations = findViolations({
    name: manifest.name,
    root,
    dependencies: { ...manifest.dependencies, ...manifest.peerDependencies },
    files: [...sourceFiles(root, 'src'), ...sourceFiles(root, 'test')],
  });
  if (violations.length > 0) {
    console.error(`[ctxkit:boundaries] ${violations.length} violation(s):\n  ${violations.join('\n  ')}`);
    process.exit(1);
  }
}
