import { describe, expect, it } from 'vitest';
import { firstSentence } from './first-sentence.ts';

describe('firstSentence', () => {
  it('cuts after the first sentence', () => {
    expect(firstSentence('Repository owner. Must exist. Case-insensitive.')).toBe('Repository owner.');
    expect(firstSentence('Is it open? Then close it.')).toBe('Is it open?');
    expect(firstSentence('Never do this! Really.')).toBe('Never do this!');
  });

  it('keeps text without a second sentence whole', () => {
    expect(firstSentence('Repository owner')).toBe('Repository owner');
    expect(firstSentence('The search query.')).toBe('The search query.');
    expect(firstSentence('  Padded text.  ')).toBe('Padded text.');
  });

  it.each([
    ['e.g.', 'Path to the file, e.g. src/app.ts. Must exist.', 'Path to the file, e.g. src/app.ts.'],
    ['e.g., with a capital after', 'A glob, e.g., Src/**. Optional.', 'A glob, e.g., Src/**.'],
    ['i.e.', 'The base branch, i.e. The one merged into. Required.', 'The base branch, i.e. The one merged into.'],
    ['etc.', 'Ignored folders like build, dist, etc. In the root only.', 'Ignored folders like build, dist, etc. In the root only.'],
    ['vs.', 'Compare head vs. Base branches. Slow.', 'Compare head vs. Base branches.'],
    ['a decimal', 'A ratio such as 0.75 between runs. Defaults to 1.', 'A ratio such as 0.75 between runs.'],
    ['a version number', 'The API version, like 2.1.0 or v3.0. Defaults to latest.', 'The API version, like 2.1.0 or v3.0.'],
    ['a file name', 'Reads package.json in the root. Then README.md.', 'Reads package.json in the root.'],
    ['a URL', 'See https://docs.example.com/v1.2/api?q=a.b for details. Slow.', 'See https://docs.example.com/v1.2/api?q=a.b for details.'],
    ['backticks', 'Use `git log. Then` to list. Done.', 'Use `git log. Then` to list.'],
    ['a fenced block', 'Run ```npm test. Now``` first. Done.', 'Run ```npm test. Now``` first.'],
    ['double quotes', 'Text like "Stop. Go" is allowed. More.', 'Text like "Stop. Go" is allowed.'],
    ['single quotes', "Use 'Auth. Method' as a label. More.", "Use 'Auth. Method' as a label."],
    ['curly quotes', 'Say \u201CHi. There\u201D first. More.', 'Say \u201CHi. There\u201D first.'],
    ['parentheses', 'Page size (max. 100. See docs) for lists. More.', 'Page size (max. 100. See docs) for lists.'],
    ['an initial', 'Author like J. Smith of the repo. More.', 'Author like J. Smith of the repo.'],
    ['an ellipsis', 'Patterns like a... Then bar. More.', 'Patterns like a... Then bar.'],
    ['a lowercase continuation', 'Around approx. three files. More.', 'Around approx. three files.'],
    ['an apostrophe', "The user's repo. More text.", "The user's repo."],
  ])('does not cut at %s', (_trap, text, expected) => {
    expect(firstSentence(text)).toBe(expected);
  });

  it('ends a sentence after a closing quote or bracket', () => {
    expect(firstSentence('He said "Stop." Then left.')).toBe('He said "Stop."');
    expect(firstSentence('Filters runs (see list.) Then more.')).toBe('Filters runs (see list.)');
    expect(firstSentence('**Important note.** Read this.')).toBe('**Important note.**');
  });

  it('does not take a numbered-list marker for a sentence end', () => {
    expect(firstSentence('Steps to run\n1. Build it\n2. Test it')).toBe('Steps to run\n1. Build it\n2. Test it');
    expect(firstSentence('Options are:\n1. get - Get it.\n2. list - List them.')).toBe('Options are:\n1. get - Get it.');
  });

  it('ends at a blank line or a line break before a capital', () => {
    expect(firstSentence('Lists workflows\n\nUse it for CI questions')).toBe('Lists workflows');
    expect(firstSentence('The action to perform on a sub-issue\nOptions are:\n- add')).toBe('The action to perform on a sub-issue');
    // A line that runs on (ends with a colon or comma) continues the sentence.
    expect(firstSentence('Options are:\nAdd or Remove')).toBe('Options are:\nAdd or Remove');
  });

  it('takes the next sentence when the first is a single word', () => {
    expect(firstSentence('Optional. Glob patterns to skip. Added to defaults.')).toBe('Optional. Glob patterns to skip.');
    expect(firstSentence('Deprecated. Use q instead. Old.', { minWords: 1 })).toBe('Deprecated.');
  });
});
