// @ctxkit/tier-images README: six screenshots in a browser-agent run, all but the last one stripped.
import { memoryStore, textOf } from '@ctxkit/core';
import { imageStripTier } from '@ctxkit/tier-images';
import { assert, done, tierContext } from './_support.mjs';

const screenshot = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' };
const messages = [
  { role: 'system', content: 'You operate a browser.' },
  { role: 'user', content: 'Turn on dark mode in the settings.' },
];
for (const [index, action] of ['open_settings', 'click', 'click', 'click', 'click', 'click'].entries()) {
  const id = `call_${index}`;
  messages.push({ role: 'assistant', content: '', toolCalls: [{ id, name: action, arguments: '{}' }] });
  messages.push({ role: 'tool', toolCallId: id, toolName: action, content: [{ type: 'text', text: 'done' }, screenshot] });
}
messages.push({ role: 'user', content: 'Thanks! Now check the contrast.' });
const count = (list) =>
  list.reduce(
    (sum, message) => sum + 4 + Math.ceil(textOf(message.content).length / 4) + (typeof message.content === 'string' ? 0 : 1_200 * message.content.filter((part) => part.type === 'image').length),
    0,
  );
const context = tierContext(messages, { protectedStart: messages.length - 1, targetTokens: 2_000, count, store: memoryStore() });
const outcome = await imageStripTier({ keepRecent: 1 }).apply(messages, context);
assert.equal(outcome.status, 'applied', outcome.reason);
assert.equal(outcome.detail, 'removed 5 images, kept 1, freed 5,938 tokens');
assert.deepEqual(outcome.messages[3].content, [
  { type: 'text', text: 'done' },
  { type: 'text', text: '[image: open_settings, 1 of 6 in this turn, removed]' },
]);
done(outcome.detail);
