/** Counts the tokens of a text. */
export type CountText = (text: string) => number;

/** Blocks are joined with a blank line; this is what the separator is charged. */
const separatorTokens = 1;

/** Never cut between the two halves of a surrogate pair. */
function safeSliceEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return end > 1 && code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/**
 * Cuts a text into pieces of at most `budget` tokens, at a line break where one is near, else
 * anywhere. Every piece is non-empty; the pieces joined give the text back.
 */
export function splitText(text: string, budget: number, countText: CountText): string[] {
  const pieces: string[] = [];
  // The text's own characters-per-token ratio, measured once: counting the whole rest on every cut
  // would make a 400 KB tool output quadratic.
  const ratio = text.length / Math.max(1, countText(text));
  let rest = text;
  while (rest.length > 0) {
    if (rest.length <= budget * ratio * 1.5 && countText(rest) <= budget) {
      pieces.push(rest);
      break;
    }
    let end = Math.max(1, Math.min(rest.length, Math.floor(budget * ratio)));
    while (end > 1 && countText(rest.slice(0, end)) > budget) end = Math.max(1, Math.floor(end * 0.85));
    const lineBreak = rest.lastIndexOf('\n', end - 1);
    if (end < rest.length && lineBreak >= end / 2) end = lineBreak + 1;
    end = safeSliceEnd(rest, end);
    pieces.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return pieces;
}

/**
 * Packs blocks, in order, into chunks of at most `budget` tokens (blank-line separators counted).
 * A block larger than the budget is cut into pieces that each repeat its first line (the label)
 * with `(piece k of n)`.
 */
export function packBlocks(blocks: readonly string[], budget: number, countText: CountText): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let used = 0;
  const push = (block: string, tokens: number) => {
    if (current.length > 0 && used + tokens + separatorTokens > budget) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(block);
    used += tokens + (current.length > 1 ? separatorTokens : 0);
  };
  for (const block of blocks) {
    const tokens = countText(block);
    if (tokens <= budget) {
      push(block, tokens);
      continue;
    }
    const newline = block.indexOf('\n');
    const title = newline > 0 && newline < 200 ? block.slice(0, newline) : '';
    const body = title === '' ? block : block.slice(newline + 1);
    const titleTokens = title === '' ? 0 : countText(`${title} (piece 999 of 999)`) + 1;
    const pieces = splitText(body, Math.max(1, budget - titleTokens), countText);
    pieces.forEach((piece, index) => {
      const text = title === '' ? piece : `${title} (piece ${index + 1} of ${pieces.length})\n${piece}`;
      push(text, countText(text));
    });
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
