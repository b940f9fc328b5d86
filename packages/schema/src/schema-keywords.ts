/**
 * Where JSON Schema (draft-07 through 2020-12) holds subschemas. Everything else in a schema object is
 * a value (`enum`, `const`, `default`, `required`, ...) and is never walked into: a `title` inside an
 * `enum` value or a property named `default` is data, not an annotation.
 */

/** Keywords whose value is one subschema. */
export const singleSchemaKeywords: ReadonlySet<string> = new Set([
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
]);

/** Keywords whose value is an array of subschemas. */
export const schemaArrayKeywords: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/** Keywords whose value maps names (property names, patterns, definition names) to subschemas. */
export const schemaMapKeywords: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Keywords that only annotate; dropping them changes no validation verdict. */
export const defaultAnnotationKeywords: readonly string[] = ['title', 'examples', 'default', '$comment'];

/** Annotations some hosts act on (hide a field, warn on use); dropped only when asked. */
export const usageAnnotationKeywords: readonly string[] = ['deprecated', 'readOnly', 'writeOnly'];

/** A schema position: the keyword path from the schema root, as JSON Pointer segments. */
export type SchemaPath = readonly (string | number)[];

/** One subschema of a schema object, with the path segments that lead to it from its parent. */
export interface SchemaChild {
  segments: readonly (string | number)[];
  /** The name of the property this subschema describes, for subschemas of `properties`. */
  propertyName?: string;
  value: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The subschemas directly inside a schema object, keyword by keyword. `items` is a subschema, or a
 * draft-07 tuple (an array of subschemas); `dependencies` entries are subschemas unless they are a
 * list of property names. Values of the wrong kind (a `properties` that is a string) are skipped here
 * and reported by the checker.
 */
export function schemaChildren(schema: Record<string, unknown>): SchemaChild[] {
  const children: SchemaChild[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (singleSchemaKeywords.has(keyword)) {
      children.push({ segments: [keyword], value });
    } else if (keyword === 'items') {
      if (Array.isArray(value)) value.forEach((item, index) => void children.push({ segments: [keyword, index], value: item }));
      else children.push({ segments: [keyword], value });
    } else if (schemaArrayKeywords.has(keyword)) {
      if (Array.isArray(value)) value.forEach((item, index) => void children.push({ segments: [keyword, index], value: item }));
    } else if (schemaMapKeywords.has(keyword)) {
      if (isRecord(value)) {
        for (const [name, item] of Object.entries(value)) {
          children.push(keyword === 'properties' ? { segments: [keyword, name], propertyName: name, value: item } : { segments: [keyword, name], value: item });
        }
      }
    } else if (keyword === 'dependencies' && isRecord(value)) {
      for (const [name, item] of Object.entries(value)) if (!Array.isArray(item)) children.push({ segments: [keyword, name], value: item });
    }
  }
  return children;
}

/** Whether a keyword's value must be a schema (or a collection of them), so a wrong kind of value is a broken schema. */
export function expectsSchemaValue(keyword: string): 'schema' | 'array' | 'map' | 'items' | undefined {
  if (singleSchemaKeywords.has(keyword)) return 'schema';
  if (keyword === 'items') return 'items';
  if (schemaArrayKeywords.has(keyword)) return 'array';
  if (schemaMapKeywords.has(keyword)) return 'map';
  return undefined;
}

/** JSON Pointer text for a path: `/properties/a~1b/items`. */
export function pointerOf(path: SchemaPath): string {
  return path.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

export { isRecord };
