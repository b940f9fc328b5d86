import { isRecord } from './schema-keywords.ts';

/** Words that carry no information about a parameter on their own. */
const fillerWords = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'to',
  'this',
  'that',
  'its',
  'it',
  'is',
  'be',
  'given',
  'specified',
  'value',
  'values',
  'parameter',
  'param',
  'field',
  'argument',
  'arg',
  'input',
  'property',
  'or',
  'and',
  'unique',
]);

/** Words that name a JSON type, by the type they name. */
const typeWords: Record<string, readonly string[]> = {
  string: ['string', 'str', 'text'],
  number: ['number', 'numeric', 'float'],
  integer: ['integer', 'int', 'number', 'numeric'],
  boolean: ['boolean', 'bool', 'flag'],
  array: ['array', 'list'],
  object: ['object', 'map'],
  null: ['null'],
};

/** Short forms in parameter names and the words a description spells them out with. */
const spelledOut: Record<string, readonly string[]> = {
  repo: ['repository'],
  org: ['organization', 'organisation'],
  num: ['number'],
  no: ['number'],
  id: ['identifier'],
  ids: ['identifiers'],
  dir: ['directory'],
  msg: ['message'],
  desc: ['description'],
  info: ['information'],
  config: ['configuration'],
  env: ['environment'],
  url: ['link'],
  pr: ['pull', 'request'],
  max: ['maximum'],
  min: ['minimum'],
  len: ['length'],
  src: ['source'],
  dest: ['destination'],
  ref: ['reference'],
  auth: ['authentication', 'authorization'],
};

/** Lowercase words of a name or a sentence: `pullNumber` -> pull, number; `per_page` -> per, page. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .replace(/['\u2019]s\b/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

function singular(word: string): string {
  if (word.length > 3 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function schemaTypes(schema: Record<string, unknown>): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

/**
 * True when a parameter description only restates what the compacted schema already shows: the
 * property's name (with common short forms spelled out: `repo` / "repository"), the names it sits
 * under (`owners`: the enclosing properties and the tool, so "account ID" on `account.id` and "zone
 * status" on `status` of `list_zones` restate), its type, its enum or const values, or its format,
 * plus filler words. "The issue number" on `issue_number: number`
 * restates; "Repository name" on `repo` does not ("name" says which identifier), nor does "The method
 * to execute" on `method`. Descriptions with more than four words besides filler are always kept.
 * @example
 * ```ts
 * restatesSchema('The issue number', { name: 'issue_number', schema: { type: 'number' } }); // true
 * restatesSchema('Repository name', { name: 'repo', schema: { type: 'string' } }); // false
 * restatesSchema('account ID', { name: 'id', owners: ['account'], schema: { type: 'string' } }); // true
 * ```
 */
export function restatesSchema(description: string, context: { name?: string | undefined; owners?: readonly string[] | undefined; schema: unknown }): boolean {
  const words = wordsOf(description);
  if (words.length === 0) return true;
  if (words.filter((word) => !fillerWords.has(word)).length > 4) return false;
  const known = new Set<string>();
  const add = (word: string) => {
    known.add(word);
    known.add(singular(word));
    for (const long of spelledOut[word] ?? []) known.add(long);
  };
  for (const name of [...(context.name === undefined ? [] : [context.name]), ...(context.owners ?? [])]) for (const word of wordsOf(name)) add(word);
  if (isRecord(context.schema)) {
    const schema = context.schema;
    for (const type of schemaTypes(schema)) for (const word of typeWords[type] ?? []) add(word);
    const listed = [...(Array.isArray(schema.enum) ? schema.enum : []), ...('const' in schema ? [schema.const] : [])];
    for (const value of listed) if (typeof value === 'string' || typeof value === 'number') for (const word of wordsOf(String(value))) add(word);
    if (typeof schema.format === 'string') for (const word of wordsOf(schema.format)) add(word);
  }
  return words.every((word) => fillerWords.has(word) || known.has(word) || known.has(singular(word)));
}

const number = String.raw`-?\d+(?:\.\d+)?`;
const lowerNote = new RegExp(String.raw`^(?:min|minimum|at least|>=|≥)\s*:?\s*(${number})$`, 'i');
const upperNote = new RegExp(String.raw`^(?:max|maximum|at most|up to|<=|≤)\s*:?\s*(${number})$`, 'i');
const rangeNote = new RegExp(String.raw`^(${number})\s*(?:-|–|to|\.\.)\s*(${number})$`, 'i');

function numbersOf(schema: Record<string, unknown>, keywords: readonly string[]): number[] {
  return keywords.map((keyword) => schema[keyword]).filter((value): value is number => typeof value === 'number');
}

/** Whether one item of a parenthetical note ("min 1", "max: 100", "optional") says only what the schema says. */
function noteIsRestated(item: string, schema: Record<string, unknown>, required: boolean | undefined): boolean {
  const lowers = numbersOf(schema, ['minimum', 'minLength', 'minItems', 'minProperties']);
  const uppers = numbersOf(schema, ['maximum', 'maxLength', 'maxItems', 'maxProperties']);
  const lower = lowerNote.exec(item);
  if (lower) return lowers.includes(Number(lower[1]));
  const upper = upperNote.exec(item);
  if (upper) return uppers.includes(Number(upper[1]));
  const range = rangeNote.exec(item);
  if (range) return lowers.includes(Number(range[1])) && uppers.includes(Number(range[2]));
  if (required !== undefined && /^(optional|required)$/i.test(item)) return (item.toLowerCase() === 'required') === required;
  return false;
}

const formatShapes: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
  url: /^[a-z][a-z0-9+.-]*:\S+$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  ipv4: /^(\d{1,3}\.){3}\d{1,3}$/,
  ipv6: /^[0-9a-f]*:[0-9a-f:.]*$/i,
};
const examplePrefix = /^(?:e\.\s?g\.?|eg|for example|example|such as)\s*[,:]?\s*/i;

/** Whether an inline example value says no more than the schema: a value of its `format`, or one of its `enum` values. */
function exampleIsRestated(value: string, schema: Record<string, unknown>): boolean {
  const bare = value.trim().replace(/^[`'"\u2018\u201C]|[`'"\u2019\u201D]$/g, '');
  if (bare === '') return false;
  const shape = typeof schema.format === 'string' ? formatShapes[schema.format] : undefined;
  if (shape?.test(bare)) return true;
  return Array.isArray(schema.enum) && schema.enum.some((entry) => String(entry) === bare);
}

/**
 * Removes the parts of parenthetical notes that restate the schema: bounds the schema enforces
 * ("(min 1, max 100)" beside `minimum: 1, maximum: 100`), requiredness that agrees with `required`,
 * and examples that are only a value of the schema's `format` or `enum` ("(e.g., 2023-04-01T00:00:00Z)"
 * beside `format: date-time`).
 * Parts the schema does not show stay: "(default 30, min 1)" becomes "(default 30)" (the `default`
 * keyword is dropped, so the note is where the default lives now), and "(max 50)" without a
 * `maximum` keeps its information.
 * @example dropRestatedNotes('Page number (min 1)', { schema: { type: 'number', minimum: 1 } }) // 'Page number'
 */
export function dropRestatedNotes(description: string, context: { schema: unknown; required?: boolean | undefined }): string {
  const schema = context.schema;
  if (!isRecord(schema)) return description;
  return description.replace(/\s*\(([^()]*)\)/g, (whole, inner: string) => {
    const example = examplePrefix.exec(inner.trim());
    const values = inner
      .trim()
      .slice(example?.[0].length ?? 0)
      .split(/\s*,\s*|\s+or\s+|\s*\|\s*/);
    // "(e.g., 2023-04-01T00:00:00Z)" beside a date-time format; "(user or org)" beside enum [user, org].
    if (values.every((value) => exampleIsRestated(value, schema))) return '';
    if (example) return whole;
    const items = inner.split(/\s*[,;]\s*/);
    const kept = items.filter((item) => !noteIsRestated(item.trim(), schema, context.required));
    if (kept.length === items.length) return whole;
    return kept.length === 0 ? '' : `${whole.match(/^\s*/)![0]}(${kept.join(', ')})`;
  });
}
