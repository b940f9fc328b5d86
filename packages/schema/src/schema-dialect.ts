import { defaultAnnotationKeywords, isRecord, schemaChildren, usageAnnotationKeywords } from './schema-keywords.ts';

/** The JSON Schema drafts ctxkit tells apart. */
export type SchemaDialect = 'draft-04' | 'draft-06' | 'draft-07' | 'draft-2019-09' | 'draft-2020-12';

const dialectUris: [RegExp, SchemaDialect][] = [
  [/json-schema\.org\/draft-04\/schema/, 'draft-04'],
  [/json-schema\.org\/draft-06\/schema/, 'draft-06'],
  [/json-schema\.org\/draft-07\/schema/, 'draft-07'],
  [/json-schema\.org\/draft\/2019-09\/schema/, 'draft-2019-09'],
  [/json-schema\.org\/draft\/2020-12\/schema/, 'draft-2020-12'],
];

/**
 * The draft a schema declares with its root `$schema`, or undefined when it declares none (or one
 * ctxkit does not know, such as a custom meta-schema).
 * @example declaredDialect({ $schema: 'http://json-schema.org/draft-07/schema#' }) // 'draft-07'
 */
export function declaredDialect(schema: unknown): SchemaDialect | undefined {
  if (!isRecord(schema) || typeof schema.$schema !== 'string') return undefined;
  const uri = schema.$schema;
  return dialectUris.find(([pattern]) => pattern.test(uri))?.[1];
}

/** Keywords whose meaning differs between draft-07 and 2020-12, or that exist in only one of them. */
const draftSpecificKeywords = [
  'additionalItems',
  'prefixItems',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedItems',
  'unevaluatedProperties',
  'minContains',
  'maxContains',
  '$recursiveRef',
  '$recursiveAnchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$anchor',
  '$vocabulary',
];

const ignoredBesideRef = new Set([...defaultAnnotationKeywords, ...usageAnnotationKeywords, 'description', '$comment', '$ref', '$schema']);

/**
 * Why a schema would validate differently under draft-07 and draft 2020-12, or undefined when it
 * validates the same under both (so its `$schema` line can go without changing any verdict). Not
 * neutral: tuple `items` arrays, `$ref` beside validation keywords (ignored in draft-07, applied in
 * 2020-12), `$id` fragments, boolean `exclusiveMinimum`, and keywords that exist in one draft only.
 * Nested `$schema` or `$id` also count, since they can switch drafts part-way down.
 */
export function dialectDifference(schema: unknown): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isRecord(schema)) return 'not a schema object';
  const stack: { node: unknown; path: string }[] = [{ node: schema, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (!isRecord(node)) continue;
    const where = path === '' ? 'the root' : path;
    for (const keyword of draftSpecificKeywords) if (node[keyword] !== undefined) return `${where} uses ${keyword}`;
    if (Array.isArray(node.items)) return `${where} uses a tuple items array`;
    if (typeof node.exclusiveMinimum === 'boolean' || typeof node.exclusiveMaximum === 'boolean') return `${where} uses a boolean exclusive bound`;
    if (path !== '' && node.$schema !== undefined) return `${where} declares its own $schema`;
    if (node.$id !== undefined) return `${where} has an $id`;
    if (node.$ref !== undefined) {
      const besides = Object.keys(node).filter((keyword) => !ignoredBesideRef.has(keyword));
      if (besides.length > 0) return `${where} has $ref beside ${besides.join(', ')}`;
    }
    for (const child of schemaChildren(node)) stack.push({ node: child.value, path: `${path}/${child.segments.join('/')}` });
  }
  return undefined;
}
