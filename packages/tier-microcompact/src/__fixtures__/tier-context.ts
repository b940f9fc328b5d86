import type { Message } from '@ctxkit/core';
import { createTierContext } from '@ctxkit/testkit';

/** A tier context as the engine builds one, with the testkit's deterministic counter. */
export const tierContext = createTierContext;

/** A file of `lines` numbered TypeScript lines, about 40 characters each. */
export function sourceFile(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, index) => `${String(index + 1).padStart(4)}  export const ${name}${index} = ${index * 7};`).join('\n');
}

/**
 * A coding agent's run: the task, then rounds of read_file / bash / grep calls with long outputs,
 * and a final short exchange. Tool results are at indices 3, 5, 7, 9, 11.
 */
export function codingRun(): Message[] {
  return [
    { role: 'system', content: 'You are a coding agent. Use the tools to inspect and edit the repository.' },
    { role: 'user', content: 'The app crashes on start with "Cannot read properties of undefined". Find and fix it.' },
    { role: 'assistant', content: 'Let me read the entry point.', toolCalls: [{ id: 'call_a1', name: 'read_file', arguments: '{"path":"src/app.ts"}' }] },
    { role: 'tool', toolCallId: 'call_a1', toolName: 'read_file', content: sourceFile('app', 400) },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_a2', name: 'bash', arguments: '{"command":"npm test -- --run 2>&1 | tail -200"}' }] },
    { role: 'tool', toolCallId: 'call_a2', toolName: 'bash', content: `FAIL src/app.test.ts\n${'  at Object.<anonymous> (src/app.ts:12:7)\n'.repeat(150)}exit code 1` },
    { role: 'assistant', content: 'Searching for the config loader.', toolCalls: [{ id: 'call_a3', name: 'grep', arguments: '{"pattern":"loadConfig","path":"src"}' }] },
    {
      id: 'msg-7',
      role: 'tool',
      toolCallId: 'call_a3',
      toolName: 'grep',
      content: Array.from({ length: 120 }, (_, index) => `src/module${index}.ts:3:import { loadConfig } from './config';`).join('\n'),
    },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_a4', name: 'read_file', arguments: '{"path":"src/config.ts"}' }] },
    { role: 'tool', toolCallId: 'call_a4', toolName: 'read_file', content: sourceFile('config', 300) },
    { role: 'assistant', content: 'The env lookup returns undefined. Checking the .env file.', toolCalls: [{ id: 'call_a5', name: 'read_file', arguments: '{"path":".env"}' }] },
    { role: 'tool', toolCallId: 'call_a5', toolName: 'read_file', content: 'PORT=3000' },
    { role: 'assistant', content: 'Found it: CONFIG_PATH is missing. I will add a default.' },
  ];
}
