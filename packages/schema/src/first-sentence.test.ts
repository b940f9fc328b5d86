import { describe, expect, it } from 'vitest';
import { firstSentence, firstSentenceAndDirectives, sentenceStarts, statesCondition } from './first-sentence.ts';

describe('firstSentence', () => {
  it.each([
    ['cuts after a full stop', 'Repository owner. Must exist. Case-insensitive.', 'Repository owner.'],
    ['cuts after a question mark', 'Is it open? Then close it.', 'Is it open?'],
    ['cuts after an exclamation mark', 'Never do this! Really.', 'Never do this!'],
    ['cuts after a closing quote', 'He said "Stop." Then left.', 'He said "Stop."'],
    ['cuts after a closing bracket', 'Filters runs (see list.) Then more.', 'Filters runs (see list.)'],
    ['cuts after closing emphasis', '**Important note.** Read this.', '**Important note.**'],
    ['cuts after a blank line', 'Lists workflows\n\nUse it for CI questions', 'Lists workflows'],
    ['cuts after a line break before a capital', 'The action to perform on a sub-issue\nOptions are:\n- add', 'The action to perform on a sub-issue'],
    ['cuts after the second sentence when the first is a single word', 'Optional. Glob patterns to skip. Added to defaults.', 'Optional. Glob patterns to skip.'],
    ['cuts after a numbered list item, not its marker', 'Options are:\n1. get - Get it.\n2. list - List them.', 'Options are:\n1. get - Get it.'],
    ['keeps text whole: without a second sentence', 'Repository owner', 'Repository owner'],
    ['keeps text whole: ending in its only full stop', 'The search query.', 'The search query.'],
    ['keeps text whole: padded, trimmed', '  Padded text.  ', 'Padded text.'],
    ['keeps text whole: a numbered list without sentence ends', 'Steps to run\n1. Build it\n2. Test it', 'Steps to run\n1. Build it\n2. Test it'],
    // A line that runs on (ends with a colon or comma) continues the sentence.
    ['keeps text whole: a line that runs on after a colon', 'Options are:\nAdd or Remove', 'Options are:\nAdd or Remove'],
    ['does not cut at e.g.', 'Path to the file, e.g. src/app.ts. Must exist.', 'Path to the file, e.g. src/app.ts.'],
    ['does not cut at e.g., with a capital after', 'A glob, e.g., Src/**. Optional.', 'A glob, e.g., Src/**.'],
    ['does not cut at i.e.', 'The base branch, i.e. The one merged into. Required.', 'The base branch, i.e. The one merged into.'],
    ['does not cut at etc.', 'Ignored folders like build, dist, etc. In the root only.', 'Ignored folders like build, dist, etc. In the root only.'],
    ['does not cut at vs.', 'Compare head vs. Base branches. Slow.', 'Compare head vs. Base branches.'],
    ['does not cut at a decimal', 'A ratio such as 0.75 between runs. Defaults to 1.', 'A ratio such as 0.75 between runs.'],
    ['does not cut at a version number', 'The API version, like 2.1.0 or v3.0. Defaults to latest.', 'The API version, like 2.1.0 or v3.0.'],
    ['does not cut at a file name', 'Reads package.json in the root. Then README.md.', 'Reads package.json in the root.'],
    ['does not cut at a URL', 'See https://docs.example.com/v1.2/api?q=a.b for details. Slow.', 'See https://docs.example.com/v1.2/api?q=a.b for details.'],
    ['does not cut at backticks', 'Use `git log. Then` to list. Done.', 'Use `git log. Then` to list.'],
    ['does not cut at a fenced block', 'Run ```npm test. Now``` first. Done.', 'Run ```npm test. Now``` first.'],
    ['does not cut at double quotes', 'Text like "Stop. Go" is allowed. More.', 'Text like "Stop. Go" is allowed.'],
    ['does not cut at single quotes', "Use 'Auth. Method' as a label. More.", "Use 'Auth. Method' as a label."],
    ['does not cut at curly quotes', 'Say \u201CHi. There\u201D first. More.', 'Say \u201CHi. There\u201D first.'],
    ['does not cut at parentheses', 'Page size (max. 100. See docs) for lists. More.', 'Page size (max. 100. See docs) for lists.'],
    ['does not cut at an initial', 'Author like J. Smith of the repo. More.', 'Author like J. Smith of the repo.'],
    ['does not cut at an ellipsis', 'Patterns like a... Then bar. More.', 'Patterns like a... Then bar.'],
    ['does not cut at a lowercase continuation', 'Around approx. three files. More.', 'Around approx. three files.'],
    ['does not cut at an apostrophe', "The user's repo. More text.", "The user's repo."],
    // Chinese and Japanese: a full-width mark ends a sentence with no space after it.
    ['cuts after a Chinese full stop', '环境 ID。action=list 时可选。', '环境 ID。'],
    ['cuts after a full-width question or exclamation mark', '是否覆盖已有文件？默认不覆盖。', '是否覆盖已有文件？'],
    ['cuts after a Japanese full stop', 'ファイルのパス。省略可能です。', 'ファイルのパス。'],
    ['cuts after a closing corner bracket', '模式名称「标准。」其余说明。', '模式名称「标准。」'],
    ['cuts after the second sentence when the first is one CJK word', '可选。按环境别名筛选。默认全部。', '可选。按环境别名筛选。'],
    ['keeps text whole: ending in its only Chinese full stop', '返回数量上限。', '返回数量上限。'],
    ['does not cut inside full-width parentheses', '地域（如 上海。广州）。用于选择网关。', '地域（如 上海。广州）。'],
  ])('%s', (_behaviour, text, expected) => {
    expect(firstSentence(text)).toBe(expected);
  });

  it('takes a single word as a sentence with minWords: 1', () => {
    expect(firstSentence('Deprecated. Use q instead. Old.', { minWords: 1 })).toBe('Deprecated.');
  });
});

describe('sentenceStarts', () => {
  it('finds every sentence by the same rules, however short', () => {
    const text = 'Adds a file, e.g. src/app.ts. Note: runs in Python 3.  Done.';
    expect(sentenceStarts(text).map((start) => text.slice(start, start + 4))).toEqual(['Adds', 'Note', 'Done']);
    expect(sentenceStarts('  One sentence only')).toEqual([2]);
    expect(sentenceStarts(' \n ')).toEqual([]);
  });
});

describe('firstSentenceAndDirectives', () => {
  it.each([
    ['keeps a later "do not"', 'Path to the file. Relative to the root. Do not provide an absolute path.', 'Path to the file. Do not provide an absolute path.'],
    ['keeps "must", "always", "never" in any case', 'Text to replace. MUST appear once. Never empty. Always quoted.', 'Text to replace. MUST appear once. Never empty. Always quoted.'],
    [
      'keeps a note to the LLM',
      'Vector to search for. Note to LLM: check the index with collection-indexes first.',
      'Vector to search for. Note to LLM: check the index with collection-indexes first.',
    ],
    ['keeps "ensure" and "important"', 'New code. Ensure it compiles. Important: no placeholders. Spaces only.', 'New code. Ensure it compiles. Important: no placeholders.'],
    ['drops descriptive sentences, "should" ones too', 'Region URL. Usually not needed. It should be omitted.', 'Region URL.'],
    ['is the first sentence alone when nothing later directs', 'Issue title. Keep it short.', 'Issue title.'],
    ['does not repeat a directive first sentence', 'Must be a directory. It must already exist.', 'Must be a directory. It must already exist.'],
    ['keeps text without a sentence end whole', 'branch name', 'branch name'],
    ['keeps a later Chinese "do not", with no space after the full stop', '查询地域。默认为上海。不要据此判定该地域没有环境。', '查询地域。不要据此判定该地域没有环境。'],
    ['keeps Chinese "must" and "forbidden"', '环境 ID。绑定后生效。必须先登录。禁止传入空值。', '环境 ID。必须先登录。禁止传入空值。'],
  ])('%s', (_case, text, expected) => {
    expect(firstSentenceAndDirectives(text)).toBe(expected);
    expect(firstSentenceAndDirectives(expected)).toBe(expected);
  });
});

describe('firstSentenceAndDirectives on sentences that say when a parameter counts', () => {
  it.each([
    ['keeps "Required for" an operation', 'The sprint ID. Taken from the board. Required for close_sprint and move_issue.', 'The sprint ID. Required for close_sprint and move_issue.'],
    ['keeps "Required when" with a list after a colon', 'Target folder. Defaults to the root. Required when: action is copy.', 'Target folder. Required when: action is copy.'],
    [
      'keeps "Required if" and "Required unless"',
      'Body text. Markdown allowed. Required if title is empty. Required unless template is set.',
      'Body text. Required if title is empty. Required unless template is set.',
    ],
    [
      'keeps "Only used when" and "only applies to"',
      'Page size. Between 1 and 50. Only used when mode is list. This only applies to paged results.',
      'Page size. Only used when mode is list. This only applies to paged results.',
    ],
    [
      'keeps "Ignored unless" and "ignored otherwise"',
      'Reviewer email. From the directory. Ignored unless notify is true. Needed for invites; ignored otherwise.',
      'Reviewer email. Ignored unless notify is true. Needed for invites; ignored otherwise.',
    ],
    ['keeps a sentence that opens on its use', 'Revision number. Found in the history. Used for: restore, diff.', 'Revision number. Used for: restore, diff.'],
    ['keeps "If X is given, this is ignored"', 'Search text. Matched on titles. If an id is given, this parameter is ignored.', 'Search text. If an id is given, this parameter is ignored.'],
    ['keeps "Cannot be used with"', 'Start date. ISO 8601. Cannot be used with range.', 'Start date. Cannot be used with range.'],
    [
      'keeps "Works only when" and "Not needed for"',
      'Column list. Comma separated. Works only when detail is on. Not needed for exports.',
      'Column list. Works only when detail is on. Not needed for exports.',
    ],
    [
      'keeps Chinese "required when" and "only valid when", with no space after the full stop',
      '环境 ID。默认当前环境。action=delete 时必填。仅 action=list 时有效。',
      '环境 ID。action=delete 时必填。仅 action=list 时有效。',
    ],
    ['keeps a Chinese "is ignored", not "real time" or "timeout"', '查询地域。实时生效。超时返回空。传入 id 时该参数会被忽略。', '查询地域。传入 id 时该参数会被忽略。'],
    ['still drops sentences that only describe', 'Label text. It is only used as a display name. Used as the title.', 'Label text.'],
  ])('%s', (_case, text, expected) => {
    expect(firstSentenceAndDirectives(text)).toBe(expected);
    expect(firstSentenceAndDirectives(expected)).toBe(expected);
  });

  it('reads a condition wherever it sits in the sentence, not "required" or "only" alone', () => {
    expect(statesCondition('This property is required when a user is created.')).toBe(true);
    expect(statesCondition('Applicable to premium plans only.')).toBe(true);
    expect(statesCondition('Required.')).toBe(false);
    expect(statesCondition('Returns only open issues.')).toBe(false);
    expect(statesCondition('Used to identify the row.')).toBe(false);
    expect(statesCondition('The only accepted value is "json".')).toBe(false);
  });
});
