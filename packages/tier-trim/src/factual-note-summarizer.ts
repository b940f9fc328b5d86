import type { SummarizerPlugin } from '@ctxkit/core';
import { collectFacts } from './note-facts.ts';
import { noteDetails, renderNote } from './render-note.ts';

/** Characters per token assumed for `maxOutputTokens`: notes are mostly paths, commands and ASCII. */
const charactersPerToken = 4;

/**
 * A summarizer that uses no model: it writes a factual note of the messages it is given (files read
 * and written, commands run with their exit status, other tool calls, errors seen, what the user said,
 * archived results, earlier summaries, and the last plan), read from the messages' structure.
 * Deterministic. `maxOutputTokens` (about 4 characters a token) picks how much of each list it keeps.
 *
 * Gotcha: it reads tool calls from structured messages, so it belongs where it gets them:
 * `trimTier` calls it on the real span. As tier 0's summarizer it would get ctxkit's framed text and
 * no tool calls; its note has no Task section, so `summaryTier` rejects it and the next tier runs.
 * @example
 * ```ts
 * const note = await factualNoteSummarizer().summarize({ messages: middle, instructions: '' });
 * // ## Files written\n- src/app.py\n## Commands run\n- `python -m pytest tests` → exit 1 ...
 * ```
 */
export function factualNoteSummarizer(): SummarizerPlugin<'factual-note'> {
  return {
    specificationVersion: 'v1',
    kind: 'summarizer',
    id: 'factual-note',
    async summarize({ messages, maxOutputTokens, signal }) {
      signal?.throwIfAborted();
      const facts = collectFacts(messages);
      const limit = maxOutputTokens === undefined ? Number.POSITIVE_INFINITY : maxOutputTokens * charactersPerToken;
      let text = '';
      for (const detail of noteDetails) {
        text = renderNote(facts, detail);
        if (text.length <= limit) break;
      }
      return text === '' ? `(nothing to record: ${facts.messages} messages without tool calls, user messages or plans)` : text;
    },
  };
}
