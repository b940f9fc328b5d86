import { renderDigest, type StubDigest } from './stub-digest.ts';

/** What a stub says about the tool result it stands for; the input of a custom `stubText`. */
export interface StubDescription {
  /** The restore handle: `r7`. */
  handle: string;
  /** The handle's number, as the stub names the result: `7`. */
  number: number;
  /** The tool's name, or `tool` when the transcript does not say. */
  toolName: string;
  /** The call's key argument in a few words (a path, command or query), or '' when there is none. */
  target: string;
  /** Tokens of the original's text. */
  tokens: number;
  /** Images in the original (they are archived too, but restore as text only). */
  images: number;
  /** What the stub keeps of the output (head and tail lines, names), when stub detail is on. */
  digest?: StubDigest;
}

// The arguments that best say what a call did, in order; anything else falls back to the first values.
const keyArguments = ['command', 'cmd', 'query', 'q', 'pattern', 'path', 'file_path', 'filePath', 'filename', 'file', 'url', 'uri', 'expression'];
const targetLength = 60;

function squeeze(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= targetLength ? line : `${line.slice(0, targetLength - 1).trimEnd()}…`;
}

/**
 * The key argument of a tool call in a few words: `src/app.ts`, `cd /testbed && grep -n foo x.py`,
 * `SFO JFK 2024-05-16`. Arguments that are not a JSON object are shown as text.
 */
export function describeArguments(argumentsText: string | undefined): string {
  if (argumentsText === undefined || argumentsText.trim() === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return squeeze(argumentsText);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return typeof parsed === 'string' ? squeeze(parsed) : squeeze(argumentsText);
  }
  const record = parsed as Record<string, unknown>;
  for (const key of keyArguments) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return squeeze(value);
  }
  const scalars = Object.values(record).filter((value) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean');
  return squeeze(scalars.map(String).join(' '));
}

/** `12480` as `12,480`, whatever the locale of the machine. */
export function groupDigits(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The default stub text:
 * `[tool result 7 archived: read_file src/app.ts, 12,480 tokens; restore with restore_tool_result("r7")]`,
 * followed, when the stub keeps a digest, by `head:`, `tail:` and `mentions:` lines.
 */
export function defaultStubText(stub: StubDescription): string {
  const what = stub.target ? `${stub.toolName} ${stub.target}` : stub.toolName;
  const images = stub.images === 0 ? '' : ` and ${stub.images} image${stub.images === 1 ? '' : 's'}`;
  return `[tool result ${stub.number} archived: ${what}, ${groupDigits(stub.tokens)} tokens${images}; restore with restore_tool_result("${stub.handle}")]${renderDigest(stub.digest)}`;
}

// Recognises default stubs whose meta was lost on a round trip through a provider's wire format.
const stubShape = /^\[tool result \d+ archived: [^\n]*restore_tool_result\("r\d+"\)\](?:\n(?:head|tail|mentions): [^\n]*)*$/;

/** True when a text is a default stub (so it is never archived again). */
export function looksLikeStub(text: string): boolean {
  return stubShape.test(text);
}
