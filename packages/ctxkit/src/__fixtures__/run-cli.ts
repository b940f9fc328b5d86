// The ctxkit command run in the test's own process, as src/cli.ts runs it but with the output captured:
// a test that checks what a command prints and its exit code needs no process of its own (a tsx start is
// most of a second, decision 0061). What only a process shows (the bin entry, a closed pipe) is tested
// with one, in cli-process.test.ts.
import { runCli } from '../cli/main.ts';

/** What a command printed and the code it exited with. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `ctxkit ...args` in-process (stderr not a terminal, as in a pipe) and returns what it printed. */
export async function runCliInProcess(...args: string[]): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text), isTTY: false });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}
