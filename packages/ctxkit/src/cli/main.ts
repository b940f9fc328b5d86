import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CtxkitError } from '@ctxkit/core';
import { measureCommand, schemaBenchCommand, thresholdCommand } from './commands.ts';
import { UsageError } from './input.ts';
import type { CliIo } from './output.ts';
import { simulateCommand } from './simulate-command.ts';

const help = `ctxkit: keep a long agent run inside its model's context window.

Usage:
  ctxkit threshold --window N [--max-output N] [--policy half-window|budget]
  ctxkit measure FILE.jsonl [--model ID] [--tools TOOLS.json]
  ctxkit schema-bench TOOLS.json [--system FILE] [--compact]
  ctxkit schema-bench TOOLS.json --defer [--always-loaded NAME,...] [--queries QUERIES.json] [--system FILE]
                  (--queries or --always-loaded alone implies --defer; --compact does not combine with them)
  ctxkit simulate FILE.jsonl... [--window N[,N...]] [--max-output N] [--policy NAME] [--compare [--iso]]
                  [--trigger-tokens N] [--usage-skew F] [--check] [--model ID] [--summarizer PROVIDER:MODEL]
                  [--summarizer-url URL] [--plot FILE.svg]
                  policies: none, sliding-window, summarize-at-90, observation-masking, codex, gemini-cli,
                  opencode, anthropic-context-editing, ctxkit
  ctxkit simulate --demo

  ctxkit --version    (or -V) prints the version of ctxkit
  ctxkit --help       (or -h) prints this help

Every command takes --json for machine output. Bad input exits with code 2.
`;

/**
 * The version in ctxkit's own package.json, read when asked: the nearest package.json above this file,
 * which is src/cli/ in the repository and dist/ in the published package (bundled), so no build step
 * has to copy the number in.
 */
export function packageVersion(from: string = fileURLToPath(import.meta.url)): string {
  for (let folder = dirname(from); ; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${from}`);
  }
}

const stringOptions = ['window', 'max-output', 'policy', 'model', 'tools', 'system', 'summarizer', 'summarizer-url', 'trigger-tokens', 'usage-skew', 'plot', 'queries', 'always-loaded'];
const numericOptions = new Set(['window', 'max-output', 'trigger-tokens', 'usage-skew']);
const textOptions = stringOptions.filter((name) => !numericOptions.has(name));
const booleanOptions = ['iso', 'compact', 'defer', 'compare', 'check', 'demo', 'json'];

/** node:util parseArgs' options: every command's, checked against `allowed` per command after parsing. */
const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
  ...Object.fromEntries(stringOptions.map((name) => [name, { type: 'string' }])),
  ...Object.fromEntries(booleanOptions.map((name) => [name, { type: 'boolean' }])),
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
};

const allowed: Record<string, readonly string[]> = {
  threshold: ['window', 'max-output', 'policy', 'json'],
  measure: ['model', 'tools', 'json'],
  'schema-bench': ['system', 'compact', 'defer', 'queries', 'always-loaded', 'json'],
  simulate: ['window', 'max-output', 'policy', 'compare', 'iso', 'trigger-tokens', 'usage-skew', 'plot', 'check', 'model', 'summarizer', 'summarizer-url', 'demo', 'json'],
};

/** Node's unknown-option message, said as the other usage errors are: the option and what the command takes. */
function errorMessage(error: unknown, argv: readonly string[]): string {
  const message = error instanceof Error ? error.message.replace(/^\[ctxkit:[^\]]+\] /, '') : String(error);
  if ((error as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return message;
  const option = /'(-[^']*)'/.exec(message)?.[1] ?? message;
  const command = argv.find((argument) => allowed[argument] !== undefined);
  const takes = command ? `; ${command} takes ${allowed[command]?.map((name) => `--${name}`).join(', ')}` : '';
  return `unknown option ${option}${takes}`;
}

/**
 * Runs the ctxkit command with its arguments (without `node` and the script) and returns the exit code:
 * 0 done, 2 bad input or usage (the message names the file and line), 1 anything else.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    const [command, ...files] = positionals;
    if (values.version && !values.help && command === undefined) {
      io.stdout(`${packageVersion()}\n`);
      return 0;
    }
    if (values.help || command === undefined || command === 'help') {
      io.stdout(help);
      return command === undefined && !values.help ? 2 : 0;
    }
    const accepted = allowed[command];
    if (!accepted) throw new UsageError(`unknown command ${JSON.stringify(command)}; expected threshold, measure, schema-bench or simulate`);
    const stray = Object.keys(values).find((name) => name !== 'help' && !accepted.includes(name));
    if (stray) throw new UsageError(`${command} does not take --${stray}`);
    // A name or path given an empty value (`--model ''`, `--queries "$UNSET"`) would otherwise read as not
    // given, or name nothing in the output. The numeric options' own checks say what they expect.
    const blank = textOptions.find((name) => typeof values[name] === 'string' && (values[name] as string).trim() === '');
    if (blank) throw new UsageError(`--${blank} needs a value, got ${JSON.stringify(values[blank])}`);
    if (command === 'threshold' && files.length > 0) throw new UsageError(`threshold takes no file, got ${files.join(', ')}`);
    if (command === 'threshold') thresholdCommand(values, io);
    else if (command === 'measure') await measureCommand(files, values, io);
    else if (command === 'schema-bench') await schemaBenchCommand(files, values, io);
    else return await simulateCommand(files, values, io);
    return 0;
  } catch (error) {
    io.stderr(`ctxkit: ${errorMessage(error, argv)}\n`);
    const usage =
      error instanceof UsageError ||
      CtxkitError.isInstance(error, 'INVALID_ARGUMENT') ||
      CtxkitError.isInstance(error, 'INVALID_TRANSCRIPT') ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (usage) io.stderr('Run ctxkit --help for usage.\n');
    return usage ? 2 : 1;
  }
}
