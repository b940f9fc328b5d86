import { describe, expect, it } from 'vitest';
import { searchTerms, splitWords } from './search-terms.ts';

describe('splitWords', () => {
  it.each([
    ['getIssueComments', ['get', 'issue', 'comments']],
    ['list_pull_requests', ['list', 'pull', 'requests']],
    ['HTTPServerError', ['http', 'server', 'error']],
    ['AI2sql', ['ai', '2', 'sql']],
    ['copilot-findTextInFiles', ['copilot', 'find', 'text', 'in', 'files']],
    ['résumé.parse', ['résumé', 'parse']],
  ])('%s', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });
});

describe('searchTerms', () => {
  it('drops stop words and stems the rest, so different forms of a word meet', () => {
    expect(searchTerms('Can you please search the issues?')).toEqual(searchTerms('searching issue'));
    expect(searchTerms('Can you please search the issues?')).toEqual(['search', 'issu']);
  });

  it('keeps every word when told to', () => {
    expect(searchTerms('the files', { stopWords: new Set(), stem: false })).toEqual(['the', 'files']);
  });
});

describe('searchTerms and splitWords: not a string', () => {
  it('throw a typed error naming the function, not a TypeError from inside', () => {
    expect(() => searchTerms(null as unknown as string)).toThrow('[ctxkit:schema] searchTerms takes a string, got null');
    expect(() => searchTerms(42 as unknown as string)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => splitWords(undefined as unknown as string)).toThrow('[ctxkit:schema] splitWords takes a string, got undefined');
  });
});
