/**
 * Description clean-up that changes tokens, not meaning: white space a model does not read, emphasis
 * markers, and the "Optional:" / "(required)" notes that restate the schema's `required` list.
 */

import { periodIsNotAnEnd, sentenceStarts } from './first-sentence.ts';

/**
 * Collapses white space: every run (newlines included) becomes one space, ends trimmed. For
 * parameter descriptions, which are short and read as one line.
 * @example collapseWhitespace('Repository owner\n  (user or org)\n') // 'Repository owner (user or org)'
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Tidies white space but keeps the layout: trailing spaces on each line, runs of spaces inside a line,
 * more than one blank line, and indentation every line after the first shares (left by a template
 * literal) go; newlines, relative indentation and list structure stay. For tool descriptions, which
 * are kept whole.
 * @example tidyWhitespace('Lists files.\n\n\n    - one  \n      - two\n') // 'Lists files.\n\n- one\n  - two'
 */
export function tidyWhitespace(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)![0];
      // A line of white space only is all trailing space: it goes, indentation and all.
      if (indent.length === line.length) return '';
      return (
        indent +
        line
          .slice(indent.length)
          .replace(/[ \t]+/g, ' ')
          .trimEnd()
      );
    });
  const indents = lines
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => /^[ \t]*/.exec(line)![0].length);
  const shared = indents.length === 0 ? 0 : indents.reduce((least, indent) => Math.min(least, indent));
  return lines
    .map((line, index) => (index === 0 ? line : line.slice(shared)))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Info strings of fenced blocks whose white space outside strings means nothing (JSON, and JS/TS object literals). */
const dataLanguages = new Set(['', 'json', 'jsonc', 'json5', 'js', 'javascript', 'ts', 'typescript']);
const fencedBlock = /^(```|~~~)[ \t]*([\w+-]*)[ \t]*\n([\s\S]*?)\n[ \t]*\1[ \t]*$/gm;

/**
 * The body of a data block written on one line: each run of white space that holds a line break, outside
 * string literals, becomes one space, or nothing after an opening or before a closing bracket. Undefined
 * when the body is not one literal (`{…}` or `[…]`), has a `//` comment (which would swallow what
 * follows) or a string that does not close on its line; such a block stays as it is.
 */
function oneLineLiteral(body: string): string | undefined {
  const text = body.trim();
  if (!/^[[{][\s\S]*[\]}]$/.test(text)) return undefined;
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"' || char === "'" || char === '`') {
      let end = index + 1;
      while (end < text.length && text[end] !== char && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
      if (text[end] !== char) return undefined;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else if (char === '/' && text[index + 1] === '/') {
      return undefined;
    } else if (/\s/.test(char)) {
      const run = /^\s+/.exec(text.slice(index))![0];
      index += run.length;
      if (!run.includes('\n')) out += run;
      else if (!/[[{(]$/.test(out) && !/^[\]})]/.test(text.slice(index))) out += ' ';
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a fenced JSON block (labelled `json`, `jsonc`, `json5`, `js`, `ts`…, or unlabelled and parsing as
 * JSON; a JS/TS object literal too, as OpenAPI-generated MCP tools embed their response schema) on one line: the indentation and line breaks of pretty-printed data cost tokens on
 * every request and carry nothing a model reads. Strings, the fences and every other block stay as
 * they are, and so does a block with a `//` comment.
 * @example compactDataBlocks('Returns:\n```json\n{\n  "id": "x",\n  "tags": [\n    "a"\n  ]\n}\n```') // 'Returns:\n```json\n{"id": "x", "tags": ["a"]}\n```'
 */
export function compactDataBlocks(text: string): string {
  return text.replace(fencedBlock, (block: string, fence: string, info: string, body: string) => {
    if (!dataLanguages.has(info.toLowerCase())) return block;
    // An unlabelled block is data only when it parses as JSON ("[\n  step one\n]" is prose).
    if (info === '' && !parsesAsJson(body)) return block;
    const line = oneLineLiteral(body);
    return line === undefined ? block : `${fence}${info}\n${line}\n${fence}`;
  });
}

/**
 * Removes emphasis markup that only changes how a page renders: `**bold**`, `__bold__`, and `<br>`
 * tags. Backticks stay, since they mark literal names and values.
 * @example stripEmphasis('Filters runs. **ONLY** used when method is list') // 'Filters runs. ONLY used when method is list'
 */
export function stripEmphasis(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g, '$1')
    .replace(/(^|[^\p{L}\p{N}_])__(?=\S)([^_\n]*?\S)__(?![\p{L}\p{N}_])/gu, '$1$2');
}

const leadingNote = /^(?:\[\s*(optional|required)\s*\]|\(\s*(optional|required)\s*\)|(optional|required)\s*(?:[.:,;]|\s-|\s\u2013|\s\u2014))[.:,;]?\s*/i;
// "Optional repository owner": the adjective, unless a condition follows ("Optional if body is set").
const leadingAdjective = /^optional\s+(?!(?:if|when|unless|for|in|with|except|only|but|and|or)\b)(?=[\p{L}\p{N}])/iu;
const trailingNote = /\s*[([]\s*(optional|required)\s*[)\]]\s*\.?$/i;

/**
 * Removes an "Optional:" / "Required." prefix or an "(optional)" suffix when it agrees with the
 * schema's `required` list, which already says the same; a note that contradicts the list is kept.
 * @example dropRequirednessNote('Optional: The branch to use.', false) // 'The branch to use.'
 */
export function dropRequirednessNote(text: string, required: boolean): string {
  let result = text;
  const lead = leadingNote.exec(result);
  const leadWord = lead && (lead[1] ?? lead[2] ?? lead[3])!.toLowerCase();
  if (lead && (leadWord === 'required') === required) result = result.slice(lead[0].length);
  else if (!required) result = result.replace(leadingAdjective, '');
  const trail = trailingNote.exec(result);
  if (trail && (trail[1]!.toLowerCase() === 'required') === required) result = result.slice(0, trail.index);
  return result;
}

// "The base of the triangle": an article before a word (or a code span, quote or bracket), never the whole text.
const leadingArticle = /^(?:the|an|a)\s+(?=[\p{L}\p{N}`'"([])/iu;
// "Specifies the Azure subscription to use", "Set the width of chart": a verb that only says the parameter
// sets what follows, before an article (decision 0104). "Set to true to …" has no article and stays.
const leadingSettingVerb = /^(?:specif(?:y|ies)|sets?|defines?|indicates?|provides?|enters?)\s+(?:the|an|a)\s+(?=[\p{L}\p{N}`'"([])/iu;
// "Set the timeout to 0 to disable it" is an instruction about a value, not a label: the verb stays.
const settingToValue = /\bto\s+(?:true|false|null|none|-?\d|["'`])/i;

/**
 * Writes a one-sentence parameter description tersely: a leading article ("The", "A", "An") and the
 * closing period go, which a model reads the same and which cost a token each on every request, and so
 * does a leading verb that only says the parameter sets what follows ("Specifies the", "Set the", "Defines
 * the", "Indicates the", "Provides the", "Enter the", before an article; not "Set the timeout to 0 …"). A
 * period that belongs to an abbreviation ("etc.", "e.g.") or an ellipsis stays, and so does the period of
 * a description with more than one sentence.
 * @example terseDescription('The base of the triangle.') // 'base of the triangle'
 * @example terseDescription('Specifies the Azure subscription to use') // 'Azure subscription to use'
 */
export function terseDescription(text: string): string {
  let result = settingToValue.test(text) ? text : text.replace(leadingSettingVerb, '');
  result = result.replace(leadingArticle, '');
  const last = result.length - 1;
  if (result[last] === '.' && sentenceStarts(result).length === 1 && !periodIsNotAnEnd(result, last)) result = result.slice(0, last).trimEnd();
  return result;
}
