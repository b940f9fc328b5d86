import { isRecord } from './schema-keywords.ts';

const definitionKeywords = ['$defs', 'definitions'] as const;

// Keywords that can reach a subschema other than by a plain `#/...` pointer (a base URI, an anchor, a
// dynamic reference): where any appears, which definition a reference reaches is not read off its text.
const otherWaysIn = new Set(['$id', 'id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveRef', '$recursiveAnchor']);

/** What a `$ref` string reaches: a root definition, the whole of a definitions map, or somewhere else local. */
type Reach = { keyword: (typeof definitionKeywords)[number]; name?: string } | 'elsewhere' | 'unknown';

function reachOf(reference: string): Reach {
  if (reference === '#') return 'elsewhere';
  if (!reference.startsWith('#/')) return 'unknown';
  let segments: string[];
  try {
    segments = decodeURIComponent(reference.slice(2))
      .split('/')
      .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  } catch {
    return 'unknown';
  }
  const [keyword, name] = segments;
  if (keyword !== '$defs' && keyword !== 'definitions') return 'elsewhere';
  return name === undefined ? { keyword } : { keyword, name };
}

/**
 * Every `$ref` string under a value, and whether something there reaches schemas by other means. The walk
 * reads every object, data included: a `$ref` inside an `enum` value counts as a use, which only keeps more.
 */
export function scan(value: unknown, out: { references: string[]; other: boolean }): void {
  if (Array.isArray(value)) {
    for (const item of value) scan(item, out);
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string') out.references.push(inner);
    // A property named `id` holds a schema (an object); the keyword holds a string (or `true`).
    else if (otherWaysIn.has(key) && !isRecord(inner) && !Array.isArray(inner)) out.other = true;
    scan(inner, out);
  }
}

/**
 * The schema without the root definitions (`$defs`, `definitions`) that no `$ref` reaches, from the schema
 * outside its definitions or through definitions that are reached. A definition is used only through a
 * reference, so what validates is unchanged. Left as it is (the same object) when nothing is unused, or when
 * a `$ref` to another document, an `$id`, an anchor or a dynamic reference makes reach uncertain. A
 * definitions map left empty goes too.
 */
export function dropUnusedDefinitions(schema: Record<string, unknown>): Record<string, unknown> {
  const maps = definitionKeywords.filter((keyword) => isRecord(schema[keyword]));
  if (maps.length === 0) return schema;
  const outside = { references: [] as string[], other: false };
  scan(Object.fromEntries(Object.entries(schema).filter(([keyword]) => !maps.includes(keyword as never))), outside);
  const used = new Map(maps.map((keyword) => [keyword, new Set<string>()]));
  const queue = [...outside.references];
  let other = outside.other;
  while (queue.length > 0 && !other) {
    const reach = reachOf(queue.pop()!);
    if (reach === 'unknown') return schema;
    if (reach === 'elsewhere') continue;
    const definitions = schema[reach.keyword];
    if (!isRecord(definitions)) continue;
    const names = reach.name === undefined ? Object.keys(definitions) : [reach.name];
    for (const name of names) {
      if (used.get(reach.keyword)!.has(name) || !Object.hasOwn(definitions, name)) continue;
      used.get(reach.keyword)!.add(name);
      const inner = { references: [] as string[], other: false };
      scan(definitions[name], inner);
      other ||= inner.other;
      queue.push(...inner.references);
    }
  }
  // Anything inside a definition that nobody reaches can still hold an `$id` or an anchor another part uses.
  if (other || maps.some((keyword) => hasOtherWayIn(schema[keyword]))) return schema;
  let changed = false;
  // Built from entries, so a key named `__proto__` stays data.
  const out: [string, unknown][] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (!maps.includes(keyword as never) || !isRecord(value)) {
      out.push([keyword, value]);
      continue;
    }
    const kept = Object.entries(value).filter(([name]) => used.get(keyword as (typeof definitionKeywords)[number])!.has(name));
    if (kept.length === Object.keys(value).length) {
      out.push([keyword, value]);
      continue;
    }
    changed = true;
    if (kept.length > 0) out.push([keyword, Object.fromEntries(kept)]);
  }
  return changed ? Object.fromEntries(out) : schema;
}

function hasOtherWayIn(value: unknown): boolean {
  const found = { references: [] as string[], other: false };
  scan(value, found);
  return found.other;
}

/**
 * The schema without its root `$id` when nothing needs it: every `$ref` in it is a local `#...` pointer (which
 * resolves to the same place against any base URI) and nothing else in it sets a base or an anchor. A tool's
 * schema is sent whole, so no other schema can refer to it by that address. Left as it is (the same object)
 * otherwise.
 */
export function dropUnusedRootId(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.$id !== 'string') return schema;
  const { $id: _id, ...rest } = schema;
  const found = { references: [] as string[], other: false };
  scan(rest, found);
  if (found.other || found.references.some((reference) => !reference.startsWith('#'))) return schema;
  // Built from entries, so a key named `__proto__` stays data.
  return Object.fromEntries(Object.entries(schema).filter(([keyword]) => keyword !== '$id'));
}
