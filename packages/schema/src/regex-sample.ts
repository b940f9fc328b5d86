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

function parse(pattern: string): Node[][] {
  let position = 0;
  const peek = () => pattern[position];

  function escapeSequence(inClass: boolean): Node {
    const char = pattern[position++];
    if (char === undefined) throw new Unsupported('pattern ends with a backslash');
    if (classEscapes[char]) return { kind: 'class', negated: false, ranges: classEscapes[char] };
    if (negatedEscapes[char]) return { kind: 'class', negated: true, ranges: classEscapes[negatedEscapes[char]]! };
    if (controlEscapes[char] !== undefined) return { kind: 'text', text: controlEscapes[char] };
    if (char === 'b' && !inClass) return { kind: 'text', text: '' };
    if (char === 'b' && inClass) return { kind: 'text', text: '\b' };
    if (char === 'x') {
      const hex = pattern.slice(position, position + 2);
      position += 2;
      return { kind: 'text', text: String.fromCharCode(Number.parseInt(hex, 16)) };
    }
    if (char === 'u') {
      if (peek() === '{') {
        const end = pattern.indexOf('}', position);
        const code = Number.parseInt(pattern.slice(position + 1, end), 16);
        position = end + 1;
        return { kind: 'text', text: String.fromCodePoint(code) };
      }
      const hex = pattern.slice(position, position + 4);
      position += 4;
      return { kind: 'text', text: String.fromCharCode(Number.parseInt(hex, 16)) };
    }
    if (/[1-9]|k|B|p|P|c/.test(char)) throw new Unsupported(`\\${char} is not supported`);
    return { kind: 'text', text: char };
  }

  function characterClass(): Node {
    const negated = peek() === '^';
    if (negated) position++;
    const ranges: [number, number][] = [];
    let first = true;
    while (position < pattern.length && (peek() !== ']' || first)) {
      first = false;
      let low: number;
      if (peek() === '\\') {
        position++;
        const node = escapeSequence(true);
        if (node.kind === 'class') {
          if (node.negated) throw new Unsupported('negated escapes inside a class are not supported');
          ranges.push(...node.ranges);
          continue;
        }
        low = (node as { text: string }).text.codePointAt(0)!;
      } else {
        low = pattern.codePointAt(position)!;
        position += low > 0xffff ? 2 : 1;
      }
      if (peek() === '-' && pattern[position + 1] !== ']' && position + 1 < pattern.length) {
        position++;
        let high: number;
        if (peek() === '\\') {
          position++;
          const node = escapeSequence(true);
          if (node.kind !== 'text') throw new Unsupported('a class escape cannot end a range');
          high = node.text.codePointAt(0)!;
        } else {
          high = pattern.codePointAt(position)!;
          position += high > 0xffff ? 2 : 1;
        }
        ranges.push([low, high]);
      } else {
        ranges.push([low, low]);
      }
    }
    if (peek() !== ']') throw new Unsupported('unterminated character class');
    position++;
    return { kind: 'class', negated, ranges };
  }

  function quantifier(node: Node): Node {
    const char = peek();
    let min: number;
    let max: number;
    if (char === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (char === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (char === '?') [min, max] = [0, 1];
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(position));
      if (!match) return node; // a literal "{"
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
      position += match[0].length - 1;
    } else return node;
    position++;
    if (peek() === '?') position++; // lazy: same language
    return { kind: 'repeat', node, min, max };
  }

  function alternatives(): Node[][] {
    const result: Node[][] = [[]];
    while (position < pattern.length && peek() !== ')') {
      const char = pattern[position++]!;
      let node: Node;
      if (char === '|') {
        result.push([]);
        continue;
      } else if (char === '^' || char === '$') {
        continue;
      } else if (char === '(') {
        if (peek() === '?') {
          const next = pattern[position + 1];
          if (next === ':') position += 2;
          else if (next === '<' && pattern[position + 2] !== '=' && pattern[position + 2] !== '!') position = pattern.indexOf('>', position) + 1;
          else throw new Unsupported('lookarounds are not supported');
        }
        const inner = alternatives();
        if (peek() !== ')') throw new Unsupported('unbalanced parenthesis');
        position++;
        node = { kind: 'group', alternatives: inner };
      } else if (char === '[') {
        node = characterClass();
      } else if (char === '.') {
        node = { kind: 'any' };
      } else if (char === '\\') {
        node = escapeSequence(false);
      } else {
        node = { kind: 'text', text: char };
      }
      result[result.length - 1]!.push(quantifier(node));
    }
    return result;
  }

  const parsed = alternatives();
  if (position < pattern.length) throw new Unsupported('unbalanced parenthesis');
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
