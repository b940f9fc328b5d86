import type { ContentPart, Message, ToolCall } from '@ctxkit/core';
import fc from 'fast-check';

/** Options for {@link transcriptArbitrary}. */
export interface TranscriptArbitraryOptions {
  /** Most user turns in one transcript. @default 8 */
  maxTurns?: number;
  /** Most assistant steps in one turn. @default 4 */
  maxStepsPerTurn?: number;
  /** Chance that a transcript ends with a tool call that has no result yet (a run's final submit). @default 0.2 */
  danglingCallRate?: number;
}

const toolNames = ['read_file', 'write_file', 'bash', 'grep', 'list_dir', 'screenshot'] as const;

const word = fc.constantFrom('the', 'file', 'error', 'test', 'fix', 'src/app.ts', 'return', 'null', '42', 'import', 'ok', 'é', '日本', '😀');
const shortText = fc.array(word, { minLength: 1, maxLength: 30 }).map((words) => words.join(' '));
/** Long tool output: a short piece repeated, so generation stays fast while sizes reach many KB. */
const longText = fc.tuple(shortText, fc.integer({ min: 1, max: 400 })).map(([piece, times]) => `${piece}\n`.repeat(times));
const image = fc.record({
  type: fc.constant('image' as const),
  mediaType: fc.constantFrom('image/png', 'image/jpeg'),
  data: fc.base64String({ minLength: 4, maxLength: 400 }),
});
const parts = fc.array(
  fc.oneof(
    shortText.map((text): ContentPart => ({ type: 'text', text })),
    image,
  ),
  { minLength: 1, maxLength: 3 },
);

interface CallDraft {
  name: (typeof toolNames)[number];
  argument: string;
  result: string | ContentPart[];
}
interface StepDraft {
  text: string;
  calls: CallDraft[];
}
interface TurnDraft {
  user: string | ContentPart[];
  steps: StepDraft[];
}

const callDraft: fc.Arbitrary<CallDraft> = fc.record({
  name: fc.constantFrom(...toolNames),
  argument: shortText,
  result: fc.oneof({ weight: 3, arbitrary: longText }, { weight: 2, arbitrary: shortText }, { weight: 1, arbitrary: parts }),
});

function argumentsFor(name: string, argument: string): string {
  if (name === 'bash') return JSON.stringify({ command: argument });
  if (name === 'grep') return JSON.stringify({ pattern: argument, path: 'src' });
  if (name === 'write_file') return JSON.stringify({ path: `src/${name.length}.ts`, content: argument });
  return JSON.stringify({ path: `src/${argument.split(' ')[0]}.ts` });
}

/**
 * Valid transcripts: an optional system message, then user turns; each turn has assistant steps with
 * 0–3 tool calls answered in order by tool results (text, long text, or parts with images). Call ids are
 * unique; some messages carry ids. Shrinks toward short transcripts.
 * @example fc.assert(fc.property(transcriptArbitrary(), (messages) => validateTranscript(messages).length === 0))
 */
export function transcriptArbitrary(options: TranscriptArbitraryOptions = {}): fc.Arbitrary<Message[]> {
  const { maxTurns = 8, maxStepsPerTurn = 4, danglingCallRate = 0.2 } = options;
  const step = fc.record({ text: fc.oneof(fc.constant(''), shortText), calls: fc.array(callDraft, { maxLength: 3 }) });
  const turn = fc.record({ user: fc.oneof({ weight: 4, arbitrary: shortText }, { weight: 1, arbitrary: parts }), steps: fc.array(step, { maxLength: maxStepsPerTurn }) });
  return fc
    .record({
      system: fc.option(shortText, { freq: 10 }),
      turns: fc.array(turn, { minLength: 1, maxLength: maxTurns }),
      dangling: fc.double({ min: 0, max: 1, noNaN: true }).map((roll) => roll < danglingCallRate),
      withIds: fc.boolean(),
    })
    .map(({ system, turns, dangling, withIds }) => build(system, turns as TurnDraft[], dangling, withIds));
}

function build(system: string | null, turns: TurnDraft[], dangling: boolean, withIds: boolean): Message[] {
  const messages: Message[] = [];
  let callCount = 0;
  const push = (message: Message) => {
    messages.push(withIds && messages.length % 3 === 0 ? { ...message, id: `m${messages.length}` } : message);
  };
  if (system !== null) push({ role: 'system', content: `System: ${system}` });
  for (const turn of turns) {
    push({ role: 'user', content: turn.user });
    for (const step of turn.steps) {
      const calls: ToolCall[] = step.calls.map((call) => ({ id: `call_${++callCount}`, name: call.name, arguments: argumentsFor(call.name, call.argument) }));
      push(calls.length > 0 ? { role: 'assistant', content: step.text, toolCalls: calls } : { role: 'assistant', content: step.text || 'ok' });
      step.calls.forEach((call, index) => {
        push({ role: 'tool', toolCallId: calls[index]!.id, toolName: call.name, content: call.result });
      });
    }
  }
  if (dangling) push({ role: 'assistant', content: '', toolCalls: [{ id: `call_${++callCount}`, name: 'submit', arguments: '{}' }] });
  return messages;
}
