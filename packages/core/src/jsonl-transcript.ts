import { CtxkitError } from './ctxkit-error.ts';
import type { Message, ToolCall } from './message.ts';

interface RecordedCall {
  id?: unknown;
  name?: unknown;
  arguments?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

/** Throws INVALID_TRANSCRIPT naming the file and line. */
function throwInvalidLine(source: string, line: number, message: string, cause?: unknown): never {
  throw new CtxkitError({ code: 'INVALID_TRANSCRIPT', source: 'core', message: `${source}:${line}: ${message}`, cause });
}

/**
 * Parses a transcript in JSONL, the format agent runs are recorded in, one JSON message per line: `role`, `content`,
 * `tool_calls: [{ id, name, arguments }]` (arguments an object or JSON text; OpenAI's `function`
 * wrapper accepted) and `tool_call_id`. Blank lines are skipped.
 * @throws CtxkitError INVALID_TRANSCRIPT naming the file and line of the first bad line
 */
export function parseJsonlTranscript(text: string, source = 'transcript'): Message[] {
  const messages: Message[] = [];
  const callNames = new Map<string, string>();
  text.split('\n').forEach((raw, lineIndex) => {
    const line = lineIndex + 1;
    if (raw.trim() === '') return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(raw) as Record<string, unknown>;
    } catch (error) {
      throwInvalidLine(source, line, `not valid JSON (${(error as Error).message})`, error);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throwInvalidLine(source, line, 'expected a JSON object per line');
    const content = record.content ?? '';
    if (typeof content !== 'string' && !Array.isArray(content)) throwInvalidLine(source, line, 'content must be a string, an array of parts, or null');
    switch (record.role) {
      case 'system':
        if (typeof content !== 'string') throwInvalidLine(source, line, 'a system message needs string content');
        messages.push({ role: 'system', content });
        return;
      case 'user':
        messages.push({ role: 'user', content: content as Message['content'] & string });
        return;
      case 'assistant': {
        const calls = record.tool_calls;
        if (calls !== undefined && calls !== null && !Array.isArray(calls)) throwInvalidLine(source, line, 'tool_calls must be an array');
        const toolCalls: ToolCall[] = ((calls as RecordedCall[] | null | undefined) ?? []).map((call, index) => {
          const name = call.name ?? call.function?.name;
          const args = call.arguments ?? call.function?.arguments ?? '{}';
          if (typeof call.id !== 'string' || typeof name !== 'string') throwInvalidLine(source, line, `tool_calls[${index}] needs a string id and name`);
          callNames.set(call.id, name);
          return { id: call.id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
        });
        messages.push(toolCalls.length > 0 ? { role: 'assistant', content: content as string, toolCalls } : { role: 'assistant', content: content as string });
        return;
      }
      case 'tool': {
        const id = record.tool_call_id;
        if (typeof id !== 'string') throwInvalidLine(source, line, 'a tool message needs a string tool_call_id');
        const toolName = typeof record.name === 'string' ? record.name : callNames.get(id);
        messages.push({ role: 'tool', toolCallId: id, ...(toolName ? { toolName } : {}), content: content as string });
        return;
      }
      default:
        throwInvalidLine(source, line, `unknown role ${JSON.stringify(record.role)}; expected system, user, assistant or tool`);
    }
  });
  return messages;
}
