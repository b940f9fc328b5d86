/**
 * Abbreviations a period does not end a sentence after (compared lowercased, without the final dot).
 * Dotted ones (`e.g`, `i.e`, `a.k.a`) are also caught by the letter-dot-letter rule below.
 */
const abbreviations = new Set([
  'e.g',
  'eg',
  'i.e',
  'ie',
  'etc',
  'vs',
  'cf',
  'approx',
  'incl',
  'excl',
  'esp',
  'resp',
  'fig',
  'no',
  'nr',
  'nos',
  'vol',
  'pp',
  'ca',
  'min',
  'max',
  'avg',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'jr',
  'sr',
  'inc',
  'ltd',
  'co',
  'corp',
  'dept',
  'est',
  'al',
  'viz',
  'ver',
  'ref',
  'sec',
]);

const closers = new Set(['"', "'", '\u201D', '\u2019', ')', ']', '*', '_', '`']);
// Chinese and Japanese sentence marks (。！？, full width) end a sentence with no space after them; the
// brackets and quotes that may close right after one: ） 」 』 ” ’ 》.
const cjkSentenceMarks = new Set(['\u3002', '\uFF01', '\uFF1F']);
const cjkClosers = new Set(['\uFF09', '\u300D', '\u300F', '\u201D', '\u2019', '\u300B']);
// Ideographs, kana and hangul: text written without spaces between words.
const cjkCharacter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const openQuotes: Record<string, string> = { '"': '"', '\u201C': '\u201D', "'": "'", '\u2018': '\u2019' };

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/** The run of non-space characters that ends at `end` (exclusive), without opening punctuation. */
function wordBefore(text: string, end: number): string {
  let start = end;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  return text.slice(start, end).replace(/^[("'\u201C\u2018[*_`]+/, '');
}

function atLineStart(text: string, index: number): boolean {
  for (let cursor = index - 1; cursor >= 0; cursor--) {
    const char = text[cursor]!;
    if (char === '\n') return true;
    if (char !== ' ' && char !== '\t') return false;
  }
  return true;
}

/** True when the period at `index` belongs to an abbreviation, a list marker, an initial or an ellipsis. */
export function periodIsNotAnEnd(text: string, index: number): boolean {
  if (text[index - 1] === '.' || text[index + 1] === '.') return true; // an ellipsis
  const word = wordBefore(text, index);
  const lower = word.toLowerCase();
  if (word === '') return true;
  if (abbreviations.has(lower)) return true;
  if (/^(\p{L}{1,2}\.)+\p{L}{1,2}$/u.test(word)) return true; // e.g, i.e, U.S, a.k.a
  if (/^\p{L}$/u.test(word)) return true; // an initial: "J. Smith", "option A. "
  // A numbered-list marker ("1. Read the file") or a section number ("2.3. ").
  if (/^\d+(\.\d+)*$/.test(word) && atLineStart(text, index - word.length)) return true;
  return false;
}

/**
 * The first sentence of a description, for trimming parameter descriptions. A sentence ends at `.`,
 * `!` or `?` followed by white space and then something that is not a lowercase letter, at a full-width
 * `。`, `！` or `？` (Chinese, Japanese) with anything after it, no space needed, at a blank
 * line, or at a line break before a capital when the line does not run on (ends in `:` or `,`). It does
 * not end after `e.g.`, `i.e.`, `etc.`, `vs.` and similar abbreviations, initials, list markers or an
 * ellipsis; inside decimals, version numbers, file names or URLs (no space follows their dots); or
 * inside backticks, quotes, parentheses or brackets. A first sentence of fewer than `minWords` words
 * ("Optional.", "Deprecated."; two CJK characters count as a word) takes the next one with it. Text without a
 * sentence end comes back whole.
 * @default options.minWords 2
 * @example
 * ```ts
 * firstSentence('Path to the file, e.g. src/app.ts. Must exist.'); // 'Path to the file, e.g. src/app.ts.'
 * firstSentence('Version (e.g. 1.2.3). Defaults to latest.');       // 'Version (e.g. 1.2.3).'
 * ```
 */
export function firstSentence(text: string, options: { minWords?: number } = {}): string {
  const minWords = options.minWords ?? 2;
  let start = 0;
  // Skip leading space so "  Foo. Bar" and "Foo. Bar" cut alike.
  while (start < text.length && /\s/.test(text[start]!)) start++;
  const end = sentenceEnd(text, start, minWords);
  return end === undefined ? text.trim() : text.slice(0, end).trim();
}

// Words of a sentence that tells the model what it must or must not do ("Do not provide an absolute path.",
// "Must appear exactly once.", "Always ask the user.") or speaks to it ("Note to LLM: …"); "should" is left
// out: it mostly describes.
// The same in Chinese (must, be sure to, do not, never, forbidden, only, ensure, note, important), which has no word
// boundaries to match at.
const directive = /\b(?:always|never|must|do not|don't|ensure|make sure|important|critical|llms?)\b|必须|务必|不要|不得|不能|请勿|切勿|禁止|严禁|只能|仅限|确保|注意|重要/i;

// Verbs and adjectives a sentence uses to say where a parameter counts: "only used when", "applies only to".
const counts = '(?:used|applies|apply|applicable|relevant|valid|meaningful|needed|required|allowed|supported|settable|available|honou?red|effective|considered|works?)';
// Words that open the condition itself: "for create", "when type is 'user'", "unless body is provided".
const when = '(?:for|when|if|unless|with|in|on|to|by|after|before|while)';

// A sentence that says under which condition the parameter is required, used or ignored. A schema cannot say
// "required when action is create" (the tool declares one flat object), so on tools that fold several operations
// into an `action` or `method` enum this sentence is what tells the model which parameters a call needs.
const condition = new RegExp(
  [
    // "Required for create and update", "Mandatory when exact is false", "Not needed for 'text'", "Required unless body is provided"
    String.raw`\b(?:required|mandatory|needed)\s+(?:only\s+)?(?:for|when|if|unless|by|with|in|on)\b`,
    // "Only used when", "Only applies to mode=info", "This parameter is only needed if", "Only valid for"
    String.raw`\bonly\s+${counts}\s+${when}\b`,
    // "Used only when", "Works only when includeColumns is true"
    String.raw`\b${counts}\s+only\s+${when}\b`,
    // A sentence that opens on it: "Used for: get, list.", "Used when reordering items.", "Applicable to OS disks only."
    // ("Used to identify the row." says what the parameter is for, not when it counts.)
    String.raw`^(?:used\s+(?:only\s+)?(?!to\b)|(?:applies|applicable|relevant|valid)\s+(?:only\s+)?)${when}\b`,
    // "Ignored unless sendNotificationEmail is true.", "is ignored for PNG", "ignored otherwise"
    String.raw`\bignored\s+(?:for|when|if|unless|with|in|on|otherwise|except)\b`,
    // "If `send_digits` is provided, this parameter is ignored.", "If `dynamic` is false, this is required."
    String.raw`^(?:if|when|unless)\b[^.;]*\b(?:ignored|required|mandatory)\b`,
    // "Cannot be used with insert_after.", "Can't be combined with filter."
    String.raw`\b(?:cannot|can't|can not) be (?:used|combined|set|specified|provided|given)\s+(?:with|together|alongside|when|if|unless)\b`,
    // "Not used for 'domain'", "not applicable when"
    String.raw`\bnot\s+(?:used|needed|required|applicable|relevant|supported|allowed)\s+(?:for|when|if|with|unless|in|on)\b`,
    // Chinese, which has no word boundaries: "action=set_env 时必填" (required when), "仅 action=list 时有效" (only
    // valid when), "仅适用于" / "仅用于" (only applies to / used for), "该参数会被忽略" (is ignored). Not after 实, 即, 及,
    // 随, 定, 超, 同 (实时 "real time", 超时 "timeout", 同时 "at the same time" are words of their own).
    '(?<![实即及随定超同])时(?:必填|必传|必需|必须|需要|需传|有效|生效|可选|可省略|使用|适用|忽略|无效)',
    '(?:仅|只)(?:在|当|对|用于|适用|作用于)',
    '被忽略',
  ].join('|'),
  'i',
);

/**
 * Whether a sentence says under which condition a parameter is required, used or ignored ("Required for
 * get_team_capacity.", "Required when action is create.", "Only used when method is list.", "Only applies to
 * mode=info.", "Ignored unless wait is true.", "If `url` is given, this is ignored.", "Cannot be used with
 * filter."), or the same in Chinese ("action=set_env 时必填。", "仅 action=list 时有效。", "该参数会被忽略。"). A
 * schema's `required` list cannot say this, so trimming keeps it (see {@link firstSentenceAndDirectives}).
 * @example statesCondition('Required for create and update.') // true
 * @example statesCondition('Required for accurate results.') // true (read as a condition too)
 * @example statesCondition('Used as a label.') // false
 */
export function statesCondition(sentence: string): boolean {
  return condition.test(sentence.trim());
}

/**
 * The first sentence of a description (as {@link firstSentence} cuts it), followed by every later sentence
 * that tells the model what it must or must not do: one with "always", "never", "must", "do not", "don't",
 * "ensure", "make sure", "important" or "critical", or one that names the model as "LLM" ("Note to LLM:
 * use the indexes tool first."), or Chinese words of the same sense (必须, 务必, 不要, 禁止, 只能, 确保, 注意…); and
 * every later sentence that says under which condition the parameter is required, used or ignored
 * ("Required for create.", "Only used when method is list.", "Ignored unless wait is true.": see
 * {@link statesCondition}). The sentences kept are joined with one space (none after `。`, `！` or `？`).
 * @example
 * ```ts
 * firstSentenceAndDirectives('The organization ID. Found in the settings. Always ask the user.');
 * // 'The organization ID. Always ask the user.'
 * firstSentenceAndDirectives('The team name. Defaults to the project team. Required for get_team_capacity.');
 * // 'The team name. Required for get_team_capacity.'
 * ```
 */
export function firstSentenceAndDirectives(text: string): string {
  const lead = firstSentence(text);
  const leadEnd = text.indexOf(lead) + lead.length;
  const kept = [lead];
  const starts = sentenceStarts(text);
  starts.forEach((start, index) => {
    if (start < leadEnd) return;
    const sentence = text.slice(start, starts[index + 1] ?? text.length).trim();
    if (directive.test(sentence) || statesCondition(sentence)) kept.push(sentence);
  });
  // Sentences after a CJK mark follow it without a space, as they were written.
  return kept.reduce((joined, sentence) => (cjkSentenceMarks.has(joined.at(-1) ?? '') ? joined + sentence : `${joined} ${sentence}`));
}

/**
 * Where each sentence of a text starts, by the rules of {@link firstSentence} (every sentence counts,
 * however short): `[0]` for one sentence, `[]` for blank text. Leading white space is skipped.
 * @example sentenceStarts('Adds a file. Note: in Python 3.') // [0, 13]
 */
export function sentenceStarts(text: string): number[] {
  const starts: number[] = [];
  let start = 0;
  for (;;) {
    while (start < text.length && /\s/.test(text[start]!)) start++;
    if (start >= text.length) return starts;
    starts.push(start);
    const end = sentenceEnd(text, start, 1);
    if (end === undefined) return starts;
    start = end;
  }
}

/** Words in a text; a run of CJK characters, written without spaces, counts as one word per two characters. */
function wordCount(text: string): number {
  const cjk = text.match(cjkCharacter)?.length ?? 0;
  const spaced = text.replace(cjkCharacter, ' ');
  return spaced.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length + Math.ceil(cjk / 2);
}

/** The index just past the first sentence end at or after `from`, or undefined when there is none. */
function sentenceEnd(text: string, from: number, minWords: number): number | undefined {
  let parenDepth = 0;
  let quote: string | undefined; // the closing quote we are waiting for
  let index = from;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '`') {
      // A code span or fence: skip to the matching run of backticks, if there is one.
      let run = 1;
      while (text[index + run] === '`') run++;
      const fence = '`'.repeat(run);
      const close = text.indexOf(fence, index + run);
      index = close === -1 ? index + run : close + run;
      continue;
    }
    if (quote !== undefined) {
      if (char === quote && (quote !== "'" || !isWordChar(text[index + 1]))) {
        quote = undefined;
        // 'He said "Stop." Then' ends after the closing quote.
        const end = parenDepth === 0 ? endAfterCloser(text, index, minWords) : undefined;
        if (end !== undefined) return end;
      }
      index++;
      continue;
    }
    const closingQuote = openQuotes[char];
    // A quote opens only at a word boundary ("user's" is an apostrophe) and only if it closes later.
    if (closingQuote !== undefined && !isWordChar(text[index - 1]) && text.indexOf(closingQuote, index + 1) !== -1) {
      quote = closingQuote;
      index++;
      continue;
    }
    if (char === '(' || char === '[' || char === '\uFF08') {
      const closer = char === '(' ? ')' : char === '[' ? ']' : '\uFF09';
      if (text.indexOf(closer, index + 1) !== -1) parenDepth++;
      index++;
      continue;
    }
    if ((char === ')' || char === ']' || char === '\uFF09') && parenDepth > 0) {
      parenDepth--;
      // "Filters runs (see list.) Then more." ends after the bracket.
      const end = parenDepth === 0 ? endAfterCloser(text, index, minWords) : undefined;
      if (end !== undefined) return end;
      index++;
      continue;
    }
    if (char === '\n' && parenDepth === 0) {
      // A blank line ends a paragraph, and with it the sentence; so does a line break before a
      // capital when the line before it does not run on ("sub-issue\nOptions are: ...").
      let cursor = index + 1;
      while (cursor < text.length && (text[cursor] === ' ' || text[cursor] === '\t' || text[cursor] === '\r')) cursor++;
      const before = text.slice(0, index).trimEnd();
      const runsOn = /[,;:([{\-\u2013\u2014/&+=|]$/.test(before);
      const ends = text[cursor] === '\n' || (!runsOn && /\p{Lu}/u.test(text[cursor] ?? ''));
      if (ends && cursor < text.length && wordCount(before) >= minWords) return before.length;
      index++;
      continue;
    }
    if (cjkSentenceMarks.has(char) && parenDepth === 0) {
      const end = cjkBoundaryAfter(text, index, minWords);
      if (end !== undefined) return end;
    }
    if ((char === '.' || char === '!' || char === '?') && parenDepth === 0 && !(char === '.' && periodIsNotAnEnd(text, index))) {
      const end = boundaryAfter(text, index, minWords);
      if (end !== undefined) return end;
    }
    index++;
  }
  return undefined;
}

/** A sentence end at a closing quote or bracket right after a sentence mark: `"Stop." Then`. */
function endAfterCloser(text: string, index: number, minWords: number): number | undefined {
  const inside = text[index - 1];
  if (inside !== '.' && inside !== '!' && inside !== '?') return undefined;
  if (inside === '.' && periodIsNotAnEnd(text, index - 1)) return undefined;
  return boundaryAfter(text, index, minWords);
}

/**
 * Whether the sentence mark at `index` ends a sentence: closing marks may follow it, then white space,
 * then anything but a lowercase letter ("approx. three" is not an end). Returns the index past it.
 */
function boundaryAfter(text: string, index: number, minWords: number): number | undefined {
  let after = index + 1;
  while (after < text.length && closers.has(text[after]!)) after++;
  if (after >= text.length || !/\s/.test(text[after]!)) return undefined;
  let next = after;
  while (next < text.length && /\s/.test(text[next]!)) next++;
  if (next >= text.length || /\p{Ll}/u.test(text[next]!)) return undefined;
  return wordCount(text.slice(0, after)) >= minWords ? after : undefined;
}

/**
 * Whether the CJK sentence mark at `index` ends a sentence: closing brackets or quotes may follow it, and
 * something must come after them (no space is needed). Returns the index past the closers.
 */
function cjkBoundaryAfter(text: string, index: number, minWords: number): number | undefined {
  let after = index + 1;
  while (after < text.length && (cjkClosers.has(text[after]!) || closers.has(text[after]!))) after++;
  if (text.slice(after).trim() === '') return undefined;
  return wordCount(text.slice(0, after)) >= minWords ? after : undefined;
}
