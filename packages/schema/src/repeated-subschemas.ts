import { declaredDialect } from './schema-dialect.ts';
import { isRecord, pointerOf, type SchemaPath, schemaChildren } from './schema-keywords.ts';
import { scan } from './unused-definitions.ts';

/** Shortest subschema (compact JSON characters, about 50 tokens) worth a definition of its own. */
export const minSharedSubschemaLength = 200;

interface Occurrence {
  path: SchemaPath;
  /** The nearest property name above it, to name the definition after. */
  name: string | undefined;
}

/** The decoded JSON Pointer of a local `$ref`, or undefined for one that is not a plain `#/...` pointer. */
function targetOf(reference: string): string | undefined {
  if (reference === '#') return '';
  if (!reference.startsWith('#/')) return undefined;
  try {
    return decodeURIComponent(reference.slice(1));
  } catch {
    return undefined;
  }
}

/** Every subschema of at least `minLength` characters, by its JSON text, with where it sits; definitions themselves are not candidates. */
function repeatedSubschemas(schema: Record<string, unknown>, minLength: number): Map<string, Occurrence[]> {
  const found = new Map<string, Occurrence[]>();
  const walk = (node: Record<string, unknown>, path: SchemaPath, name: string | undefined) => {
    for (const child of schemaChildren(node)) {
      if (!isRecord(child.value)) continue;
      const childPath = [...path, ...child.segments];
      const childName = child.propertyName ?? name;
      const definition = path.length === 0 && (child.segments[0] === '$defs' || child.segments[0] === 'definitions');
      if (!definition) {
        const text = JSON.stringify(child.value);
        if (text.length >= minLength) found.set(text, [...(found.get(text) ?? []), { path: childPath, name: childName }]);
      }
      walk(child.value, childPath, childName);
    }
  };
  walk(schema, [], undefined);
  return found;
}

function replaceAt(schema: Record<string, unknown>, path: SchemaPath, replacement: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map((item, index) => (index === rest[0] ? replaceAt({ x: item }, ['x', ...rest.slice(1)], replacement).x : item));
    return rest.length === 0 ? replacement : replaceAt(value as Record<string, unknown>, rest, replacement);
  };
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === head ? copy(value) : value]));
}

/**
 * Writes a subschema that a schema repeats word for word (at least `minLength` characters of compact JSON,
 * twice or more: generators that inline one request-body shape at every place it is used) once, as a root
 * definition, and points each place at it with a `$ref`. What validates is unchanged: a `$ref` alone
 * validates exactly as the subschema it points to, and a root-relative `$ref` inside the moved subschema
 * reaches the same place. Left as it is when an `$id`, an anchor, a dynamic or non-local reference makes
 * locations uncertain, or for a place another `$ref` points into. Definitions go under `definitions` where
 * the schema already uses that keyword or declares draft-04 to draft-07, else under `$defs`.
 */
export function shareRepeatedSubschemas(schema: Record<string, unknown>, minLength = minSharedSubschemaLength): Record<string, unknown> {
  const references = { references: [] as string[], other: false };
  scan(schema, references);
  if (references.other) return schema;
  const targets: string[] = [];
  for (const reference of references.references) {
    const target = targetOf(reference);
    if (target === undefined) return schema;
    targets.push(target);
  }
  const dialect = declaredDialect(schema);
  const keyword = isRecord(schema.definitions) || (dialect !== undefined && dialect !== 'draft-2019-09' && dialect !== 'draft-2020-12') ? 'definitions' : '$defs';
  let out = schema;
  for (let round = 0; round < 100; round++) {
    const pointedInto = (path: SchemaPath) => {
      const pointer = pointerOf(path);
      return targets.some((target) => target === pointer || target.startsWith(`${pointer}/`));
    };
    const candidates = [...repeatedSubschemas(out, minLength)]
      .map(([text, places]) => [text, places.filter((place) => !pointedInto(place.path))] as const)
      .filter(([, places]) => places.length >= 2)
      .sort(([a], [b]) => b.length - a.length);
    const best = candidates[0];
    if (best === undefined) break;
    const [text, places] = best;
    const base = (places[0]!.name ?? 'shared').replace(/[^A-Za-z0-9_]/g, '_') || 'shared';
    let name = base;
    for (let suffix = 2; isRecord(out[keyword]) && Object.hasOwn(out[keyword], name); suffix++) name = `${base}_${suffix}`;
    for (const place of places) out = replaceAt(out, place.path, { $ref: `#/${keyword}/${name}` });
    // Read after the replacements, some of which may sit inside earlier definitions.
    const definitions = isRecord(out[keyword]) ? out[keyword] : {};
    out = { ...out, [keyword]: Object.fromEntries([...Object.entries(definitions), [name, JSON.parse(text) as unknown]]) };
    targets.push(`/${keyword}/${name}`);
  }
  return out;
}
