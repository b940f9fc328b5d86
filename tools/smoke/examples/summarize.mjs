// @ctxkit/summarize README: find the span to fold, summarize it with a summarizer, the template's sections.
import { findFoldSpan, summarizeSpan, summarySections } from '@ctxkit/summarize';
import { assert, done, parserSession } from './_support.mjs';

const messages = parserSession('export function parseConfig(text) { return JSON.parse(text).settings; }\n'.repeat(40), [
  { role: 'assistant', content: 'Guarding against null.' },
  { role: 'user', content: 'Also add a test.' },
]);
const span = findFoldSpan(messages, 5);
assert.deepEqual(span, { taskIndex: 1, start: 2, end: 5 });
const requests = [];
const summarizer = {
  specificationVersion: 'v1',
  kind: 'summarizer',
  id: 'scripted',
  async summarize(request) {
    requests.push(request);
    return summarySections.map((section) => `## ${section}\n${section === 'Task' ? 'Make parseConfig in src/parser.ts accept null.' : '-'}`).join('\n');
  },
};
const result = await summarizeSpan({
  span: messages.slice(span.start, span.end),
  spanOffset: span.start,
  task: messages[span.taskIndex],
  summarizer,
  countText: (text) => Math.ceil(text.length / 4),
  maxSummaryTokens: 500,
  timeoutMs: 10_000,
  signal: new AbortController().signal,
  taskTermCoverage: 0.5,
  progress: () => {},
  source: 'smoke',
});
assert.equal(result.ok, true, result.reason);
assert.equal(requests.length, 1);
assert.match(result.text, /## Task\nMake parseConfig/);
assert.deepEqual(summarySections.slice(0, 2), ['Task', 'Constraints from the user']);
done(`span ${span.start}–${span.end} summarized in ${result.calls} call, ${summarySections.length} sections`);
