/**
 * A string that matches a JSON Schema `pattern`, for building test instances. Understands the
 * common subset of ECMAScript regular expressions (groups, alternation, classes, quantifiers,
 * escapes, anchors); lookarounds and back-references make it give up. Every candidate is checked
 * with a real `RegExp`, so an answer is always a match.
 */

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'class'; negated: boolean; ranges: [number, number][] }
  | { kind: 'any' }
  | { kind: 'group'; alternatives: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

class Unsupported extends Error {}

const classEscapes: Record<string, [number, number][]> = {
  d: [[48, 57]],
  w: [
    [97, 122],
    [65, 90],
    [48, 57],
    [95, 95],
  ],
  s: [
    [32, 32],
    [9, 9],
    [10, 10],
  ],
};
const negatedEscapes: Record<string, string> = { D: 'd', W: 'w', S: 's' };
const controlEscapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', 0: '\0' };

/** Where the parser is in the pattern it reads. */
interface Cursor {
  readonly pattern: string;
  position: number;
}

const peek = (cursor: Cursor) => cursor.pattern[cursor.position];

/** One code point at the cursor, consumed. */
function readCodePoint(cursor: Cursor): number {
  const code = cursor.pattern.codePointAt(cursor.position)!;
  cursor.position += code > 0xffff ? 2 : 1;
  return code;
}

/** `\xHH` or `\uHHHH` / `\u{H…}` after the backslash and letter. */
function hexEscape(cursor: Cursor, letter: 'x' | 'u'): Node {
  const { pattern } = cursor;
  if (letter === 'u' && peek(cursor) === '{') {
    const end = pattern.indexOf('}', cursor.position);
    const code = Number.parseInt(pattern.slice(cursor.position + 1, end), 16);
    cursor.position = end + 1;
    return { kind: 'text', text: String.fromCodePoint(code) };
  }
  const digits = letter === 'x' ? 2 : 4;
  const hex = pattern.slice(cursor.position, cursor.position + digits);
  cursor.position += digits;
  return { kind: 'text', text: String.fromCharCode(Number.parseInt(hex, 16)) };
}

function escapeSequence(cursor: Cursor, inClass: boolean): Node {
  const char = cursor.pattern[cursor.position++];
  if (char === undefined) throw new Unsupported('pattern ends with a backslash');
  if (classEscapes[char]) return { kind: 'class', negated: false, ranges: classEscapes[char] };
  if (negatedEscapes[char]) return { kind: 'class', negated: true, ranges: classEscapes[negatedEscapes[char]]! };
  if (controlEscapes[char] !== undefined) return { kind: 'text', text: controlEscapes[char] };
  if (char === 'b' && !inClass) return { kind: 'text', text: '' };
  if (char === 'b' && inClass) return { kind: 'text', text: '\b' };
  if (char === 'x' || char === 'u') return hexEscape(cursor, char);
  if (/[1-9]|k|B|p|P|c/.test(char)) throw new Unsupported(`\\${char} is not supported`);
  return { kind: 'text', text: char };
}

/** The upper end of a range inside a class (`a-z`), after the `-`. */
function rangeEnd(cursor: Cursor): number {
  if (peek(cursor) !== '\\') return readCodePoint(cursor);
  cursor.position++;
  const node = escapeSequence(cursor, true);
  if (node.kind !== 'text') throw new Unsupported('a class escape cannot end a range');
  return node.text.codePointAt(0)!;
}

function characterClass(cursor: Cursor): Node {
  const { pattern } = cursor;
  const negated = peek(cursor) === '^';
  if (negated) cursor.position++;
  const ranges: [number, number][] = [];
  let first = true;
  while (cursor.position < pattern.length && (peek(cursor) !== ']' || first)) {
    first = false;
    let low: number;
    if (peek(cursor) === '\\') {
      cursor.position++;
      const node = escapeSequence(cursor, true);
      if (node.kind === 'class') {
        if (node.negated) throw new Unsupported('negated escapes inside a class are not supported');
        ranges.push(...node.ranges);
        continue;
      }
      low = (node as { text: string }).text.codePointAt(0)!;
    } else {
      low = readCodePoint(cursor);
    }
    if (peek(cursor) === '-' && pattern[cursor.position + 1] !== ']' && cursor.position + 1 < pattern.length) {
      cursor.position++;
      ranges.push([low, rangeEnd(cursor)]);
    } else {
      ranges.push([low, low]);
    }
  }
  if (peek(cursor) !== ']') throw new Unsupported('unterminated character class');
  cursor.position++;
  return { kind: 'class', negated, ranges };
}

function quantifier(cursor: Cursor, node: Node): Node {
  const char = peek(cursor);
  let min: number;
  let max: number;
  if (char === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
  else if (char === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
  else if (char === '?') [min, max] = [0, 1];
  else if (char === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(cursor.pattern.slice(cursor.position));
    if (!match) return node; // a literal "{"
    min = Number(match[1]);
    max = match[2] === undefined ? min : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
    cursor.position += match[0].length - 1;
  } else return node;
  cursor.position++;
  if (peek(cursor) === '?') cursor.position++; // lazy: same language
  return { kind: 'repeat', node, min, max };
}

/** A group after its `(`: skips `?:` and a name, refuses lookarounds, reads up to the `)`. */
function group(cursor: Cursor): Node {
  const { pattern } = cursor;
  if (peek(cursor) === '?') {
    const next = pattern[cursor.position + 1];
    if (next === ':') cursor.position += 2;
    else if (next === '<' && pattern[cursor.position + 2] !== '=' && pattern[cursor.position + 2] !== '!') cursor.position = pattern.indexOf('>', cursor.position) + 1;
    else throw new Unsupported('lookarounds are not supported');
  }
  const inner = alternatives(cursor);
  if (peek(cursor) !== ')') throw new Unsupported('unbalanced parenthesis');
  cursor.position++;
  return { kind: 'group', alternatives: inner };
}

/** The node that starts with `char` (already consumed). */
function atom(cursor: Cursor, char: string): Node {
  if (char === '(') return group(cursor);
  if (char === '[') return characterClass(cursor);
  if (char === '.') return { kind: 'any' };
  if (char === '\\') return escapeSequence(cursor, false);
  return { kind: 'text', text: char };
}

function alternatives(cursor: Cursor): Node[][] {
  const result: Node[][] = [[]];
  while (cursor.position < cursor.pattern.length && peek(cursor) !== ')') {
    const char = cursor.pattern[cursor.position++]!;
    if (char === '|') {
      result.push([]);
      continue;
    }
    if (char === '^' || char === '$') continue;
    result[result.length - 1]!.push(quantifier(cursor, atom(cursor, char)));
  }
  return result;
}

function parse(pattern: string): Node[][] {
  const cursor: Cursor = { pattern, position: 0 };
  const parsed = alternatives(cursor);
  if (cursor.position < pattern.length) throw new Unsupported('unbalanced parenthesis');
  return parsed;
}

const preferred = [...'aA0b1_-. xyz'].map((char) => char.codePointAt(0)!);

function pickFromClass(node: Extract<Node, { kind: 'class' }>, variant: number): string {
  const inClass = (code: number) => node.ranges.some(([low, high]) => code >= low && code <= high);
  if (node.negated) {
    const code = preferred.find((candidate) => !inClass(candidate));
    if (code === undefined) throw new Unsupported('no character outside the negated class');
    return String.fromCodePoint(code);
  }
  const range = node.ranges[variant % node.ranges.length]!;
  const nice = preferred.find((code) => code >= range[0] && code <= range[1]);
  return String.fromCodePoint(nice ?? range[0]);
}

function generate(nodes: readonly Node[], variant: number): string {
  let text = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        text += node.text;
        break;
      case 'any':
        text += 'a';
        break;
      case 'class':
        text += pickFromClass(node, variant);
        break;
      case 'group':
        text += generate(node.alternatives[variant % node.alternatives.length]!, variant);
        break;
      case 'repeat': {
        // One more than the minimum when that is allowed, so `a*` yields "a" and optional parts show up.
        const count = Math.min(node.max, node.min + (variant % 2 === 0 ? 0 : 1), node.min + 3);
        for (let index = 0; index < count; index++) text += generate([node.node], variant + index);
        break;
      }
    }
  }
  return text;
}

function compiles(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

const fallbacks = ['a', 'ab', 'abc', 'A', 'AB', '1', '12', '123', 'a1', 'example.com', 'user@example.com', 'https://example.com', '2024-01-02', '', 'x-y_z'];

/**
 * A string the pattern matches, or undefined when none was found (an unsupported construct and no
 * fallback candidate that matches). Different `variant`s pick other branches and repeat counts.
 * @example samplePattern('^[a-zA-Z]{2}$') // 'aA'
 */
export function samplePattern(pattern: string, variant = 0): string | undefined {
  const regex = compiles(pattern);
  if (!regex) return undefined;
  try {
    const parsed = parse(pattern);
    for (let attempt = 0; attempt < 6; attempt++) {
      const candidate = generate(parsed[(variant + attempt) % parsed.length]!, variant + attempt);
      if (regex.test(candidate)) return candidate;
    }
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
  }
  return fallbacks.find((candidate) => regex.test(candidate));
}

/**
 * A string the pattern does not match, or undefined when the pattern matches everything tried.
 * @example violatePattern('^[a-z]+$') // '!'
 */
export function violatePattern(pattern: string): string | undefined {
  const regex = compiles(pattern);
  if (!regex) return undefined;
  return ['!', '', ' ', '!!invalid!!', '\u00e9\u00e9', 'A', 'a', '0'].find((candidate) => !regex.test(candidate));
}
