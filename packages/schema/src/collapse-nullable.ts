import { isRecord } from './schema-keywords.ts';

/** Keywords that only ever constrain values of one JSON type; a `null` passes them all. */
const keywordsOfType: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType', 'contentSchema']),
  number: new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']),
  integer: new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']),
  boolean: new Set(),
  array: new Set(['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains', 'unevaluatedItems']),
  object: new Set([
    'properties',
    'patternProperties',
    'additionalProperties',
    'required',
    'minProperties',
    'maxProperties',
    'propertyNames',
    'dependentRequired',
    'dependentSchemas',
    'dependencies',
    'unevaluatedProperties',
  ]),
};

const annotationKeywords: ReadonlySet<string> = new Set(['title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

const isNullBranch = (branch: unknown) => isRecord(branch) && branch.type === 'null' && Object.keys(branch).every((key) => key === 'type' || annotationKeywords.has(key));

/**
 * The `Optional[X]` form Pydantic and FastMCP write, `{ anyOf: [X, { type: 'null' }] }` (or `oneOf`),
 * as one schema: `{ ...X, type: [X.type, 'null'] }`. Only where the verdict cannot change: X has a
 * single non-null `type` and otherwise only keywords that constrain values of that type (a `null`
 * passes them), no `$ref`, `enum` or `const`; the outer schema has no `type` and shares no keyword
 * with X. Returns undefined when the rule does not apply. `blocked` says whether a `$ref` points
 * into the union (then it stays).
 * @example collapseNullable({ anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], default: null })
 * // { type: ['integer', 'null'], minimum: 1, default: null }
 */
export function collapseNullable(node: Record<string, unknown>, blocked: (keyword: string) => boolean = () => false): Record<string, unknown> | undefined {
  if ('type' in node) return undefined;
  const keyword = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : undefined;
  if (keyword === undefined || ('anyOf' in node && 'oneOf' in node) || blocked(keyword)) return undefined;
  const branches = node[keyword] as unknown[];
  if (branches.length !== 2) return undefined;
  const nullAt = branches.findIndex(isNullBranch);
  if (nullAt === -1) return undefined;
  const other = branches[1 - nullAt];
  if (!isRecord(other) || typeof other.type !== 'string' || other.type === 'null') return undefined;
  const ofType = keywordsOfType[other.type];
  if (ofType === undefined) return undefined;
  for (const key of Object.keys(other)) {
    if (key === 'type') continue;
    if (!ofType.has(key) && !annotationKeywords.has(key)) return undefined;
    if (key in node) return undefined;
  }
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === keyword) {
      for (const [innerKey, innerValue] of Object.entries(other)) merged[innerKey] = innerKey === 'type' ? [other.type, 'null'] : innerValue;
    } else merged[key] = value;
  }
  return merged;
}
