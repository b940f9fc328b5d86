import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';

// The README's deferred-tools example, run as it is written (imports '@ctxkit/schema' by name).
const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
const block = /<!-- readme-example: defer -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
const file = join(import.meta.dirname, '.readme-example.generated.ts');
const asyncBlock = /<!-- readme-example: async-embed -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
const asyncFile = join(import.meta.dirname, '.readme-example-async.generated.ts');
const optionsBlock = /<!-- readme-example: options -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
const optionsFile = join(import.meta.dirname, '.readme-example-options.generated.ts');
afterAll(() => {
  rmSync(file, { force: true });
  rmSync(asyncFile, { force: true });
  rmSync(optionsFile, { force: true });
});

it('the README example runs and prints what its comments say', async () => {
  expect(block).toBeDefined();
  writeFileSync(file, block!);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await import(/* @vite-ignore */ file);
  const printed = log.mock.calls.map((args) => args[0]);
  log.mockRestore();
  expect(printed).toEqual([['create_pull_request'], ['read_file', 'search_tools'], 'Loaded 1 tool, callable from your next turn:', ['read_file', 'search_tools', 'create_pull_request']]);
  // Each printed value is also written in the example's comments.
  const written = (value: unknown) => (Array.isArray(value) ? `[${value.map((item) => `'${item}'`).join(', ')}]` : `'${value}'`);
  for (const value of printed) expect(block).toContain(`// ${written(value)}`);
});

it('the README example with an asynchronous embedder runs and prints what its comments say', async () => {
  expect(asyncBlock).toBeDefined();
  writeFileSync(asyncFile, asyncBlock!);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await import(/* @vite-ignore */ asyncFile);
  const printed = log.mock.calls.map((args) => args[0]);
  log.mockRestore();
  expect(printed).toEqual([['Bohita'], ['get_weather']]);
  for (const value of printed) expect(asyncBlock).toContain(`// [${(value as string[]).map((item) => `'${item}'`).join(', ')}]`);
});

it('the README example of the search options runs and prints what its comments say', async () => {
  expect(optionsBlock).toBeDefined();
  writeFileSync(optionsFile, optionsBlock!);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await import(/* @vite-ignore */ optionsFile);
  const printed = log.mock.calls.map((args) => args[0]);
  log.mockRestore();
  expect(printed).toEqual([['repo_stats', 'list_repositories'], ['repo_stats']]);
  for (const value of printed) expect(optionsBlock).toContain(`// [${(value as string[]).map((item) => `'${item}'`).join(', ')}]`);
});
