import { CtxkitError } from '@ctxkit/core';
import { stemmer } from 'stemmer';

/**
 * Words that carry no meaning for choosing a tool: English function words and the request
 * boilerplate of chat prompts ("can you please help me"). Kept short on purpose: a content word
 * wrongly listed here can never be found.
 */
export const defaultStopWords: readonly string[] = (
  'a about above after again all also am an and any are as at be been before being below both but by can could did do does doing ' +
  'down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself ' +
  'just let me more most my myself no nor not now of off on once only or other our ours ourselves out over own please same she should so ' +
  'some such than that the their theirs them themselves then there these they this those through to too under until up us very was we ' +
  'were what when where which while who whom why will with would you your yours yourself yourselves want need like help tell give know ' +
  'e g eg i e ie etc'
).split(' ');

/**
 * Splits text into search words: camelCase, PascalCase, snake_case, kebab-case, dotted and digit
 * boundaries become word breaks (`getIssueComments` → `get issue comments`, `AI2sql` → `ai 2 sql`),
 * then everything is lower-cased.
 * @example splitWords('list_pullRequests v2') // ['list', 'pull', 'requests', 'v', '2']
 */
export function splitWords(text: string): string[] {
  checkText('splitWords', text);
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([a-zA-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** How {@link searchTerms} turns text into index terms. */
export interface SearchTermsOptions {
  /** Words left out; `[]` keeps every word. @default defaultStopWords */
  stopWords?: ReadonlySet<string>;
  /** Reduce words to their Porter stem (`searching`, `searches` → `search`). @default true */
  stem?: boolean;
}

const defaultStopSet: ReadonlySet<string> = new Set(defaultStopWords);

// Stemming dominates indexing time and tool text repeats its words; bounded so a long-lived process
// indexing many tool sets does not grow without limit.
const stems = new Map<string, string>();
function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size >= 50_000) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/**
 * The index terms of a text: split words, stop words out, each word stemmed.
 * @example searchTerms('Searches GitHub issues') // ['search', 'github', 'issu']
 */
export function searchTerms(text: string, options: SearchTermsOptions = {}): string[] {
  checkText('searchTerms', text);
  const stop = options.stopWords ?? defaultStopSet;
  const stem = options.stem ?? true;
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    if (stop.has(word)) continue;
    terms.push(stem ? stemOf(word) : word);
  }
  return terms;
}

function checkText(name: string, text: unknown): void {
  if (typeof text !== 'string') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message: `${name} takes a string, got ${text === null ? 'null' : typeof text}` });
  }
}
