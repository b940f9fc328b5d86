import { describe, expect, it } from 'vitest';
import { collapseWhitespace, compactDataBlocks, dropRequirednessNote, stripEmphasis, terseDescription, tidyWhitespace } from './description-text.ts';

describe('collapseWhitespace', () => {
  it('makes one line of any white space', () => {
    expect(collapseWhitespace('  Repository owner\n   (user or org)\t\n')).toBe('Repository owner (user or org)');
  });
});

describe('tidyWhitespace', () => {
  it('removes what a model does not read but keeps the layout', () => {
    expect(tidyWhitespace('Lists files.   Fast.\n\n\n\n- one  \n  - nested\t\n')).toBe('Lists files. Fast.\n\n- one\n  - nested');
    expect(tidyWhitespace('a\r\nb')).toBe('a\nb');
    // Indentation a template literal left on every line after the first goes; nesting stays.
    expect(tidyWhitespace('Runs a command.\n\n      Guidelines:\n      - Quiet flags\n        - npm --silent')).toBe('Runs a command.\n\nGuidelines:\n- Quiet flags\n  - npm --silent');
  });

  it('empties a line of spaces only, even when no indentation is shared', () => {
    // The unindented last line keeps the indentation of the others; the blank "    " lines still go.
    expect(tidyWhitespace('Runs.\n    - one\n    \n    - two\n  \t\n\nNote.')).toBe('Runs.\n    - one\n\n    - two\n\nNote.');
  });
});

describe('compactDataBlocks', () => {
  it('writes a pretty-printed JSON block on one line, strings untouched', () => {
    const text = 'Lists reports.\n\n# Response\n```json\n{\n  "id": "a  b",\n  "tags": [\n    "x",\n    "y"\n  ],\n  "n": {}\n}\n```\nUse `jq_filter`.';
    expect(compactDataBlocks(text)).toBe('Lists reports.\n\n# Response\n```json\n{"id": "a  b", "tags": ["x", "y"], "n": {}}\n```\nUse `jq_filter`.');
  });

  it('handles JS object literals, unlabelled and tilde fences, and escaped quotes', () => {
    expect(compactDataBlocks("```js\n{\n  type: 'object',\n  note: 'it\\'s'\n}\n```")).toBe("```js\n{type: 'object', note: 'it\\'s'}\n```");
    expect(compactDataBlocks('~~~\n[\n  1,\n  2\n]\n~~~')).toBe('~~~\n[1, 2]\n~~~');
  });

  it('leaves alone what one line would change or what is not data', () => {
    const kept = [
      '```js\n{\n  a: 1, // the first\n  b: 2\n}\n```',
      '```python\n{\n  "a": 1\n}\n```',
      '```yaml\n[\n  a\n]\n```',
      '```ts\nconst a = 1\nfoo()\n```',
      '```js\n{\n  a: `two\nlines`\n}\n```',
      'Not fenced:\n{\n  "a": 1\n}',
      '```\n[\n  step one\n  step two\n]\n```',
    ];
    for (const text of kept) expect(compactDataBlocks(text)).toBe(text);
  });

  it('is stable: a second pass changes nothing', () => {
    const once = compactDataBlocks('```json\n{\n  "a": [\n    1\n  ]\n}\n```');
    expect(compactDataBlocks(once)).toBe(once);
  });
});

describe('stripEmphasis', () => {
  it('removes bold markers and <br> but keeps code and lone symbols', () => {
    expect(stripEmphasis('Filters runs. **ONLY** used when __method__ is `list_**runs**`')).toBe('Filters runs. ONLY used when method is `list_runs`');
    expect(stripEmphasis('line<br/>next')).toBe('line next');
    expect(stripEmphasis('globs like **/*.ts and snake__case_names')).toBe('globs like **/*.ts and snake__case_names');
  });
});

describe('dropRequirednessNote', () => {
  it('drops a note that agrees with the required list', () => {
    expect(dropRequirednessNote('Optional: The branch to use.', false)).toBe('The branch to use.');
    expect(dropRequirednessNote('(OPTIONAL) The path of the directory.', false)).toBe('The path of the directory.');
    expect(dropRequirednessNote('Optional. Glob patterns.', false)).toBe('Glob patterns.');
    expect(dropRequirednessNote('Issue body content (optional)', false)).toBe('Issue body content');
    expect(dropRequirednessNote('Required: the owner.', true)).toBe('the owner.');
    expect(dropRequirednessNote('Optional repository owner.', false)).toBe('repository owner.');
  });

  it('keeps a note that contradicts the list, and conditions', () => {
    expect(dropRequirednessNote('Optional: The branch to use.', true)).toBe('Optional: The branch to use.');
    expect(dropRequirednessNote('Required for run_workflow.', false)).toBe('Required for run_workflow.');
    expect(dropRequirednessNote('Optional if body is set.', false)).toBe('Optional if body is set.');
    expect(dropRequirednessNote('Optionally, a label.', false)).toBe('Optionally, a label.');
  });
});

describe('terseDescription', () => {
  it.each([
    ['The base of the triangle.', 'base of the triangle'],
    ['A list of labels to apply', 'list of labels to apply'],
    ['an `owner/repo` slug.', '`owner/repo` slug'],
    ['Number of results.', 'Number of results'],
  ])('drops the leading article and closing period: %j', (text, terse) => {
    expect(terseDescription(text)).toBe(terse);
    expect(terseDescription(terse)).toBe(terse);
  });

  it.each([
    ['an abbreviation', 'Languages to check, e.g. Python, Go, etc.'],
    ['an ellipsis', 'Keeps going...'],
    ['a single letter, read as an initial', 'Coefficient of x.'],
    ['two sentences', 'Branch to read. Defaults to main.'],
    ['a question', 'Which branch?'],
  ])('keeps the period after %s', (_case, text) => {
    expect(terseDescription(text)).toBe(text);
  });

  it('keeps an article that is the whole text or part of a word', () => {
    expect(terseDescription('The')).toBe('The');
    expect(terseDescription('Theme name')).toBe('Theme name');
    expect(terseDescription('A/B test bucket')).toBe('A/B test bucket');
  });

  it.each([
    ['Specifies the Azure subscription to use', 'Azure subscription to use'],
    ['Set the width of chart, default is 600', 'width of chart, default is 600'],
    ['Sets the age group of the user.', 'age group of the user'],
    ['Defines the attributes to be updated', 'attributes to be updated'],
    ['Indicates the line style for the border', 'line style for the border'],
    ['Provides an expected file size', 'expected file size'],
    ['Specify a `owner/repo` slug', '`owner/repo` slug'],
  ])('drops a leading verb that only says the parameter sets what follows: %j', (text, terse) => {
    expect(terseDescription(text)).toBe(terse);
    expect(terseDescription(terse)).toBe(terse);
  });

  it.each([
    ['no article after the verb', 'Set to true to include archived items'],
    ['an instruction about a value', 'Set the timeout to 0 to disable it'],
    ['a value in quotes', "Set the mode to 'fast' for previews"],
    ['a verb that does more than label', 'Returns the first page only'],
    ['the verb inside a word', 'Settings the host reads'],
  ])('keeps the leading verb with %s', (_case, text) => {
    expect(terseDescription(text)).toBe(text);
  });
});
