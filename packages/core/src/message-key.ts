import type { Message } from './message.ts';

/**
 * How a message is named in `meta.ctxkit.replaces`: its id, or `#index` in the tier's input.
 * @example messageKey({ role: 'user', content: 'hi' }, 4) // '#4'
 */
export function messageKey(message: Message, index: number): string {
  return message.id ?? `#${index}`;
}
