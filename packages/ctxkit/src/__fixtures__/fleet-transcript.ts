import type { Message } from '@ctxkit/core';

/** A run whose tool results are told apart by the conversation, with bytes a lossy store would change. */
export function fleetTranscript(conversation: string, steps = 14): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: `Fix the failing test (${conversation}).` },
  ];
  for (let step = 0; step < steps; step++) {
    const lines = Array.from({ length: 60 }, (_, line) => `${conversation} step ${step} line ${line}: résumé — 日本 😀\ttab  `);
    messages.push({ role: 'assistant', content: `Step ${step}.`, toolCalls: [{ id: `call_${step}`, name: 'read_file', arguments: JSON.stringify({ path: `src/file${step}.ts` }) }] });
    messages.push({ role: 'tool', toolCallId: `call_${step}`, toolName: 'read_file', content: `${lines.join('\r\n')}\n{"looks":"like json"}\n` });
  }
  return messages;
}
