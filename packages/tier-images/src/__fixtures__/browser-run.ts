import { type ContentPart, type Message, type TierContext, textOf } from '@ctxkit/core';
import { createTierContext } from '@ctxkit/testkit';

// A real 1×1 PNG; the counter below prices every image as a full screenshot, whatever its bytes.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const screenshot: ContentPart = { type: 'image', mediaType: 'image/png', data: png };
const photo: ContentPart = { type: 'image', mediaType: 'image/jpeg', data: png };

/** Tokens as a provider prices a 1280×800 screenshot (about 1,200) plus ceil(characters / 4) of text. */
export function screenshotCount(messages: readonly Message[]): number {
  let tokens = 0;
  for (const message of messages) {
    tokens += 4 + Math.ceil(textOf(message.content).length / 4);
    if (typeof message.content !== 'string') tokens += 1_200 * message.content.filter((part) => part.type === 'image').length;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) tokens += Math.ceil((call.name.length + call.arguments.length) / 4) + 3;
  }
  return tokens;
}

/** A tier context priced by {@link screenshotCount}. */
export function tierContext(overrides: Partial<TierContext> & { protectedStart: number; messages?: readonly Message[] }): TierContext {
  return createTierContext({ count: screenshotCount, ...overrides });
}

/**
 * A browser agent's run in three turns. Images (7): the task's mockup (1), screenshots at 3 and 5, two
 * photos the user pasted at 6, screenshots at 8 and 12. Turns: 1–5, 6–9, 10–13.
 */
export function browserRun(): Message[] {
  return [
    { role: 'system', content: 'You operate a web browser with the screenshot and click tools.' },
    { role: 'user', content: [{ type: 'text', text: 'Book the cheapest flight to Lisbon on the site shown here.' }, photo] },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'screenshot', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'call_1', toolName: 'screenshot', content: [{ type: 'text', text: 'Screenshot of https://flights.example.com' }, screenshot] },
    { role: 'assistant', content: 'The search form is visible.', toolCalls: [{ id: 'call_2', name: 'click', arguments: '{"x":640,"y":410}' }] },
    { id: 'click-result', role: 'tool', toolCallId: 'call_2', toolName: 'click', content: [screenshot] },
    { role: 'user', content: [{ type: 'text', text: 'These are the two options my phone shows:' }, photo, { type: 'text', text: 'and' }, photo] },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_3', name: 'screenshot', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'call_3', toolName: 'screenshot', content: [screenshot] },
    { role: 'assistant', content: 'The site lists the same two flights; the 7:05 one is cheaper.' },
    { role: 'user', content: 'Go ahead and book it.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_4', name: 'screenshot', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'call_4', toolName: 'screenshot', content: [screenshot] },
    { role: 'assistant', content: 'Booked: TP 1351, 7:05, €89.' },
  ];
}
