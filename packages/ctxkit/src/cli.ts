#!/usr/bin/env node
import { runCli } from './cli/main.ts';
import { endQuietlyOnClosedPipe } from './cli/output.ts';

// A reader that closes early (`| head -1`) ends the command quietly, not with an EPIPE stack trace.
endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: process.stderr.isTTY === true,
});
