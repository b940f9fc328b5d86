// Helpers shared by the benchmark scripts of @ctxkit/tokens (not a benchmark itself: no .bench.ts).
import { spawnSync } from 'node:child_process';
import type { Message } from '@ctxkit/core';
import { corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from '@ctxkit/testkit';

/** The recorded runs, or an exit with the corpus message where the corpus is absent. */
export function recordedRuns(): { file: string; messages: Message[] }[] {
  if (!corpusDir()) {
    console.log(`> ${corpusMissingMessage}`);
    process.exit(0);
  }
  return listTrajectories().map((file) => ({ file, messages: readTrajectory(file) }));
}

/** Every text a provider counts in a transcript: content strings, text parts, tool-call names and arguments. */
export function textsOf(messages: readonly Message[]): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') texts.push(message.content);
    else for (const part of message.content) if (part.type === 'text') texts.push(part.text);
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) texts.push(call.name, call.arguments);
    if (message.role === 'tool' && message.toolName) texts.push(message.toolName);
  }
  return texts;
}

/** Runs this script again in a fresh Node process (same loader flags) and returns the JSON it prints last. */
export function inFreshProcess<T>(script: string, args: string[]): T {
  const result = spawnSync(process.execPath, [...process.execArgv, script, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`child ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as T;
}

export const format = {
  number: (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  ratio: (value: number) => `${value.toFixed(2)}×`,
  percent: (value: number, digits = 1) => `${(value * 100).toFixed(digits)}%`,
};

/** Today's date and the machine, for the header of a results table. */
export function environment(): string {
  return `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform}/${process.arch}`;
}
