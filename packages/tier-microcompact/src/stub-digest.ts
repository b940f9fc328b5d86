import { extractNames } from '@ctxkit/summarize';

/** What a stub keeps of the output it stands for, so the model still recognises what it saw. */
export interface StubDigest {
  /** The first lines with content, cut to a line length. */
  head: string[];
  /** The last lines with content (none that the head already shows). */
  tail: string[];
  /** Names in the rest of the output (paths, identifiers, line numbers), most frequent first. */
  mentions: string[];
}

/** How much of the output a stub keeps. */
export interface StubDetailOptions {
  /** Lines kept from the start and from the end of the output. @default 2 */
  lines?: number;
  /** Characters of each kept line. @default 100 */
  lineLength?: number;
  /** Characters the digest may take, at most; lines and names are cut to fit. @default 480 */
  maxCharacters?: number;
  /** Share of the output's characters the digest may take, so a small output gets a small digest. @default 0.15 */
  share?: number;
}

/** Lines that say nothing on their own: blank, punctuation, or a lone markup tag such as `<output>`. */
const emptyLine = /^(?:[^\p{L}\p{N}]*|<\/?[\w-]+>(?:\d+<\/[\w-]+>)?)$/u;

const clipLine = (line: string, length: number) => {
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1).trimEnd()}…` : flat;
};

/**
 * The digest of a tool output for its stub: head and tail lines and the names in between, within a
 * budget that grows with the output (`share` of its characters, at most `maxCharacters`).
 * @example digestOutput('<output>\nsrc/a.py:12: def parse_config\n...\n</output>', { lines: 1 })
 */
export function digestOutput(text: string, options: StubDetailOptions = {}): StubDigest {
  const { lines = 2, lineLength = 100, maxCharacters = 480, share = 0.15 } = options;
  let budget = Math.min(maxCharacters, Math.floor(text.length * share));
  const digest: StubDigest = { head: [], tail: [], mentions: [] };
  if (budget <= 0) return digest;
  const content = text.split('\n').filter((line) => !emptyLine.test(line.trim()));
  const take = (line: string | undefined, into: string[]) => {
    if (line === undefined || budget <= 0) return;
    const clipped = clipLine(line, Math.min(lineLength, budget));
    if (clipped.length < 8) return;
    into.push(clipped);
    budget -= clipped.length;
  };
  const headCount = Math.min(lines, content.length);
  const tailCount = Math.min(lines, content.length - headCount);
  for (let index = 0; index < headCount; index += 1) take(content[index], digest.head);
  const tail: string[] = [];
  for (let index = content.length - tailCount; index < content.length; index += 1) take(content[index], tail);
  digest.tail = tail;
  const shown = new Set<string>();
  for (const line of [...digest.head, ...digest.tail]) for (const name of extractNames(line).keys()) shown.add(name);
  const middle = content.slice(headCount, content.length - tailCount).join('\n');
  const counts = extractNames(middle);
  const ranked = [...counts.entries()].filter(([name]) => !shown.has(name) && name.length <= 60).sort((a, b) => b[1] - a[1]);
  for (const [name] of ranked) {
    if (budget < name.length + 2) break;
    digest.mentions.push(name);
    budget -= name.length + 2;
  }
  return digest;
}

/** The digest as the lines that follow a stub's first line; empty when there is nothing to show. */
export function renderDigest(digest: StubDigest | undefined): string {
  if (!digest) return '';
  const parts: string[] = [];
  if (digest.head.length > 0) parts.push(`head: ${digest.head.join(' ⏎ ')}`);
  if (digest.tail.length > 0) parts.push(`tail: ${digest.tail.join(' ⏎ ')}`);
  if (digest.mentions.length > 0) parts.push(`mentions: ${digest.mentions.join(', ')}`);
  return parts.length === 0 ? '' : `\n${parts.join('\n')}`;
}
