import { CtxkitError } from '@ctxkit/core';
import { dedupeBranchDescriptions } from './branch-descriptions.ts';
import { collapseNullable } from './collapse-nullable.ts';
import { type CompactionWarning, compactionWarning, defaultWarningHandler } from './compaction-warning.ts';
import { collapseWhitespace, dropRequirednessNote, stripEmphasis, terseDescription } from './description-text.ts';
import { firstSentence, firstSentenceAndDirectives } from './first-sentence.ts';
import { inspectSchema, type SchemaIssue } from './inspect-schema.ts';
import { dropRestatedNotes, restatesSchema } from './redundant-description.ts';
import { declaredDialect, dialectDifference } from './schema-dialect.ts';
import { shareRepeatedSubschemas } from './repeated-subschemas.ts';
import { dropUnusedDefinitions, dropUnusedRootId } from './unused-definitions.ts';
import { defaultAnnotationKeywords, isRecord, schemaArrayKeywords, schemaMapKeywords, singleSchemaKeywords, usageAnnotationKeywords } from './schema-keywords.ts';

/** Options for {@link compactToolSchema} (and the schema part of `compactTools`). */
export interface CompactSchemaOptions {
  /** Trim each parameter description to its first sentence (see `firstSentence`). @default true */
  trimDescriptions?: boolean;
  /**
   * When trimming, keep the later sentences that tell the model what it must or must not do ("Do not
   * provide an absolute path.", "Must appear exactly once.") or under which condition the parameter is
   * required, used or ignored ("Required for create.", "Only used when action is list.", "Ignored unless
   * wait is true."), which a schema's `required` list cannot say; see `firstSentenceAndDirectives`. @default true
   */
  keepDirectives?: boolean;
  /**
   * Drop parameter descriptions that only restate the property's name, the names it sits under (the
   * tool's and each enclosing property's: "account ID" on `account.id`, "zone status" on `status` of
   * `list_zones`), its type, enum, const or format ("Issue number" on `issue_number: number`), and
   * "Optional:" / "(required)" notes that agree with the `required` list. @default true
   */
  dropRedundantDescriptions?: boolean;
  /** Collapse white space and remove `**emphasis**` markup in parameter descriptions. @default true */
  cleanDescriptions?: boolean;
  /**
   * Write one-sentence parameter descriptions tersely: no leading "The" / "A" / "An" or "Specifies the" /
   * "Set the" …, no closing period ("The base of the triangle." becomes "base of the triangle"; see
   * `terseDescription`). @default true
   */
  terseDescriptions?: boolean;
  /**
   * Drop every parameter description: the ceiling for parameter-level savings, and a real loss of
   * guidance for the model; measure with `compareToolChoice` before using it. @default false
   */
  dropDescriptions?: boolean;
  /** Also drop `deprecated`, `readOnly` and `writeOnly`, which some hosts act on. @default false */
  dropUsageAnnotations?: boolean;
  /**
   * Drop a numeric `format` that says no more than the rest of the schema: `int64` on an `integer`,
   * `float` / `double` on a `number` (ajv-formats accepts every integer and every number for them), and
   * the unsigned 32- and 64-bit widths (`uint32`, `uint64`, `uint`, Rust's schemars output) on an
   * `integer` that already has a `minimum` of 0 or more. `int32` (whose range ajv-formats checks) and the
   * 8- and 16-bit widths (whose upper bound nothing else states) stay. @default true
   */
  dropWidthFormats?: boolean;
  /**
   * Drop `required: []`, which requires nothing. `compactTools` keeps it on OpenAI tools marked
   * `strict: true`, whose strict mode wants `required` on every object. @default true
   */
  dropEmptyRequired?: boolean;
  /**
   * Drop a subschema that accepts everything where leaving the keyword out means the same:
   * `additionalProperties` or `additionalItems` that is `true` or `{}`, and `propertyNames` that is `true`,
   * `{}` or `{ type: 'string' }` (every key is a string; zod 4 writes it on each record). Not done in a
   * schema that uses `unevaluatedProperties` / `unevaluatedItems` (which see what `additionalProperties`
   * evaluated) or a reference the walk cannot follow. @default true
   */
  dropVacuousSubschemas?: boolean;
  /**
   * Drop the root `$schema` when the schema validates the same under draft-07 and draft 2020-12
   * (no tuple `items`, no `$ref` beside validation keywords, no draft-only keywords). @default true
   */
  dropDialect?: boolean;
  /**
   * Write Pydantic's `anyOf: [X, { type: 'null' }]` as `{ ...X, type: [X.type, 'null'] }` where that
   * validates the same (X has one type and only keywords of that type); a branch description that says
   * what the union's own says (zod's `.describe(D).nullable().optional()`) does not block it. @default true
   */
  collapseNullable?: boolean;
  /**
   * Describe a property once per `anyOf` / `oneOf`: where a later branch repeats a property an earlier
   * branch described with the same text (request-body unions repeat every shared field), the later copy
   * drops the description. @default true
   */
  dedupeBranchDescriptions?: boolean;
  /**
   * Drop root definitions (`$defs`, `definitions`) that no `$ref` reaches, from the schema outside them or
   * through definitions that are reached (generators that copy every shared component into each tool).
   * Left alone when an `$id`, an anchor, a dynamic reference or a `$ref` to another document makes reach
   * uncertain. @default true
   */
  dropUnusedDefinitions?: boolean;
  /**
   * Drop a root `$id` nothing needs: every `$ref` in the schema is a local `#...` pointer and nothing else in
   * it sets a base URI or an anchor (see `dropUnusedRootId`). It only names where the schema was published;
   * with it gone the rules that stand down on `$id` apply. @default true
   */
  dropUnusedId?: boolean;
  /**
   * Write a subschema the schema repeats word for word (at least `minSharedSubschemaLength`, 200, characters of
   * compact JSON, twice or more: a request-body shape a generator inlined at every use) once, as a root
   * definition (`$defs`, or `definitions` where the schema uses draft-07), with a `$ref` at each place (see
   * `shareRepeatedSubschemas`). Validation is unchanged; the host's provider must accept local `$ref`s,
   * as Pydantic's and zod's own output already needs. @default true
   */
  shareRepeatedSubschemas?: boolean;
  /** Annotation keywords to keep anyway, for a host that reads them (`['default']` to fill defaults in). @default [] */
  keepKeywords?: readonly string[];
  /**
   * A schema that cannot be compacted safely (not an object, a cycle, a `$ref` that points nowhere):
   * `'warn'` returns it unchanged and reports it to `onWarning`; `'throw'` throws. @default 'warn'
   */
  onInvalid?: 'warn' | 'throw';
  /** Receives every warning. @default console.warn of the warning's message */
  onWarning?: (warning: CompactionWarning) => void;
  /** Deepest JSON nesting accepted; deeper schemas count as invalid. Capped at 1,000, which compaction's recursion handles safely. @default 256 */
  maxDepth?: number;
}

/** Where a schema sits, for warnings and errors: the tool's index and name in a `compactTools` call. */
export interface SchemaLocation {
  toolIndex?: number;
  toolName?: string;
}

interface NodeContext {
  propertyName?: string;
  /** The names this node sits under: the tool's, then each enclosing property's (see `restatesSchema`). */
  owners?: readonly string[];
  /** Whether the parent's `required` lists this property; undefined outside `properties`. */
  required?: boolean;
}

interface Walk {
  options: CompactSchemaOptions;
  dropped: ReadonlySet<string>;
  referencedPaths: ReadonlySet<string>;
  dropDialect: boolean;
  /** Whether `dropVacuousSubschemas` applies to this schema (see {@link vacuousIsSafe}). */
  dropVacuous: boolean;
}

function escapeSegment(segment: string | number): string {
  return `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** A deep copy of checked JSON data; own-property writes, so a key named `__proto__` stays data. */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copyJson(inner)]));
  return value;
}

/**
 * Compacts one parameter description; '' means drop it. The order matters: the requiredness note goes
 * first so "Optional. Glob patterns to skip." keeps its real first sentence. The steps repeat until
 * nothing changes (removing one note can uncover another), so compacting twice equals compacting once.
 */
export function compactDescription(
  description: string,
  context: { name?: string | undefined; owners?: readonly string[] | undefined; required?: boolean | undefined; schema: unknown },
  options: Pick<CompactSchemaOptions, 'trimDescriptions' | 'keepDirectives' | 'dropRedundantDescriptions' | 'cleanDescriptions' | 'terseDescriptions' | 'dropDescriptions'> = {},
): string {
  if (options.dropDescriptions) return '';
  const redundant = options.dropRedundantDescriptions ?? true;
  const clean = options.cleanDescriptions ?? true;
  let text = description;
  for (let round = 0; round < 8; round++) {
    const before = text;
    if (redundant && context.required !== undefined) text = dropRequirednessNote(text.trim(), context.required);
    if (clean) text = stripEmphasis(text);
    if (options.trimDescriptions ?? true) text = (options.keepDirectives ?? true) ? firstSentenceAndDirectives(text) : firstSentence(text);
    if (redundant) text = dropRestatedNotes(text, context);
    text = clean ? collapseWhitespace(text) : text.trim();
    if (options.terseDescriptions ?? true) text = terseDescription(text);
    if (text === before) break;
  }
  if (redundant && restatesSchema(text, { name: context.name, owners: context.owners, schema: context.schema })) return '';
  return text;
}

/**
 * The node as the Optional-union rule must judge it: without the annotations this walk drops anyway,
 * without a description, its own or a branch's, that compacts to nothing ("\n", "The value"), and
 * without a branch's description that says what the union's own says (zod writes
 * `.describe(D).nullable().optional()` with D on both). Judged on the node as written, a vanishing
 * description would block the rule on the first pass and not on the second; a repeated one would keep
 * the same text twice.
 */
function unionView(original: Record<string, unknown>, pointer: string, context: NodeContext, walk: Walk): Record<string, unknown> {
  // Only a union can collapse; compacting the description of every other node twice would double the walk's cost.
  if (!Array.isArray(original.anyOf) && !Array.isArray(original.oneOf)) return original;
  const free = (path: string) => !walk.referencedPaths.has(pointer + path);
  const own = original.description;
  const asOwn = { name: context.propertyName, owners: context.owners, required: context.required, schema: original };
  const ownText = typeof own === 'string' && free('/description') ? compactDescription(own, asOwn, walk.options) : undefined;
  const view = Object.fromEntries(Object.entries(original).filter(([keyword]) => !(walk.dropped.has(keyword) && free(escapeSegment(keyword))) && !(keyword === 'description' && ownText === '')));
  const owners = ownersBelow(context);
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = view[keyword];
    if (!Array.isArray(branches)) continue;
    view[keyword] = branches.map((branch, index) => {
      if (!isRecord(branch) || typeof branch.description !== 'string' || !free(`/${keyword}/${index}/description`)) return branch;
      const vanishes = compactDescription(branch.description, { owners, schema: branch }, walk.options) === '';
      // Compacted as the union's own text would be, so a requiredness note either side carries does not count.
      const repeatsOwn = ownText !== undefined && ownText !== '' && compactDescription(branch.description, asOwn, walk.options) === ownText;
      if (!vanishes && !repeatsOwn) return branch;
      const { description: _dropped, ...rest } = branch;
      return rest;
    });
  }
  return view;
}

function compactNode(original: unknown, pointer: string, context: NodeContext, walk: Walk): unknown {
  if (!isRecord(original)) return original;
  // The Optional-union rule sees the node without the annotations this walk drops anyway: otherwise an
  // annotation both sides carry would block it on the first pass and not on the second (not idempotent).
  // It runs before the walk, so a description it lifts from the branch is compacted as the property's.
  const node =
    (walk.options.collapseNullable ?? true)
      ? (collapseNullable(unionView(original, pointer, context, walk), (keyword) => walk.referencedPaths.has(pointer + escapeSegment(keyword))) ?? original)
      : original;
  const requiredList = Array.isArray(node.required) ? new Set(node.required.filter((name): name is string => typeof name === 'string')) : new Set<string>();
  const below = ownersBelow(context);
  const entries: [string, unknown][] = [];
  for (const [keyword, value] of Object.entries(node)) {
    if (value === undefined) continue;
    const here = pointer + escapeSegment(keyword);
    // A $ref may point into an annotation (rare, but legal): what it points at stays.
    const referenced = walk.referencedPaths.has(here);
    if (walk.dropped.has(keyword) && !referenced) continue;
    if (keyword === '$schema' && pointer === '' && walk.dropDialect) continue;
    if (keyword === 'format' && !referenced && (walk.options.dropWidthFormats ?? true) && formatSaysNothingMore(node)) continue;
    if (keyword === 'required' && !referenced && Array.isArray(value) && value.length === 0 && (walk.options.dropEmptyRequired ?? true)) continue;
    if (keyword === 'description' && typeof value === 'string' && !referenced) {
      const text = compactDescription(value, { name: context.propertyName, owners: context.owners, required: context.required, schema: node }, walk.options);
      if (text !== '') entries.push([keyword, text]);
      continue;
    }
    const compacted = compactKeywordValue(keyword, value, here, { requiredList, owners: below }, walk);
    if (walk.dropVacuous && !referenced && acceptsEverything(keyword, compacted)) continue;
    entries.push([keyword, compacted]);
  }
  return Object.fromEntries(entries);
}

const unsignedWidths = new Set(['uint', 'uint32', 'uint64']);

/** Whether a numeric `format` adds nothing to `type` and `minimum` (see `dropWidthFormats`). */
function formatSaysNothingMore(node: Record<string, unknown>): boolean {
  const { format, minimum } = node;
  // `format` judges numbers only, so a `null` a type list also allows does not matter.
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((type) => type !== 'null');
  if (types.length !== 1) return false;
  if (types[0] === 'number') return format === 'float' || format === 'double';
  if (types[0] !== 'integer') return false;
  if (format === 'int64') return true;
  return typeof format === 'string' && unsignedWidths.has(format) && typeof minimum === 'number' && minimum >= 0;
}

const openWhenEmpty = new Set(['additionalProperties', 'additionalItems', 'propertyNames']);

/** Whether a compacted keyword value accepts every instance, so that leaving the keyword out means the same. */
function acceptsEverything(keyword: string, value: unknown): boolean {
  if (!openWhenEmpty.has(keyword)) return false;
  if (value === true) return true;
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 0 || (keyword === 'propertyNames' && keys.length === 1 && value.type === 'string');
}

/**
 * Whether dropping an accept-everything `additionalProperties` / `additionalItems` is exact here: they
 * still evaluate what they accept, and `unevaluatedProperties` / `unevaluatedItems` (anywhere, or behind a
 * reference to another document or a dynamic one) read that. A raw scan: a data value holding such a key
 * only makes the rule stand down.
 */
function vacuousIsSafe(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(vacuousIsSafe);
  if (!isRecord(schema)) return true;
  for (const [key, inner] of Object.entries(schema)) {
    if (key === 'unevaluatedProperties' || key === 'unevaluatedItems' || key === '$dynamicRef' || key === '$recursiveRef') return false;
    if (key === '$ref' && typeof inner === 'string' && !inner.startsWith('#')) return false;
    if (!vacuousIsSafe(inner)) return false;
  }
  return true;
}

/** The owners of the schemas inside a node: the node's own, plus its property name when it has one. */
function ownersBelow(context: NodeContext): readonly string[] {
  const owners = context.owners ?? [];
  return context.propertyName === undefined ? owners : [...owners, context.propertyName];
}

function compactKeywordValue(keyword: string, value: unknown, here: string, parent: { requiredList: ReadonlySet<string>; owners: readonly string[] }, walk: Walk): unknown {
  const { requiredList, owners } = parent;
  if (singleSchemaKeywords.has(keyword)) return compactNode(value, here, { owners }, walk);
  if (keyword === 'items' || schemaArrayKeywords.has(keyword)) {
    if (Array.isArray(value)) {
      const compacted = value.map((item, index) => compactNode(item, here + escapeSegment(index), { owners }, walk));
      const union = keyword === 'anyOf' || keyword === 'oneOf';
      return union && (walk.options.dedupeBranchDescriptions ?? true) ? dedupeBranchDescriptions(compacted, (path) => walk.referencedPaths.has(here + path)) : compacted;
    }
    return keyword === 'items' ? compactNode(value, here, { owners }, walk) : copyJson(value);
  }
  if (schemaMapKeywords.has(keyword) && isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        name,
        compactNode(item, here + escapeSegment(name), keyword === 'properties' ? { propertyName: name, required: requiredList.has(name), owners } : { owners }, walk),
      ]),
    );
  }
  if (keyword === 'dependencies' && isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, Array.isArray(item) ? copyJson(item) : compactNode(item, here + escapeSegment(name), { owners }, walk)]));
  }
  // Any other keyword holds data (enum, const, required, bounds, vendor extensions): copied as it is.
  return copyJson(value);
}

/** What {@link compactSchemaChecked} did. */
export interface SchemaCompaction {
  /** The compacted schema, or the input itself when it was passed through. */
  schema: unknown;
  /** False when the schema was invalid and passed through unchanged. */
  compacted: boolean;
  /** True when the root `$schema` was dropped (the schema validates the same under draft-07 and 2020-12). */
  droppedDialect: boolean;
  warnings: CompactionWarning[];
}

function describeIssues(issues: readonly SchemaIssue[]): string {
  const first = issues[0]!;
  return `${first.path === '' ? '' : `${first.path}: `}${first.problem}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`;
}

/**
 * Checks a schema, then compacts it, or passes it through with warnings. The building block of
 * `compactToolSchema` and `compactTools`; returns the warnings instead of calling `onWarning`.
 * @throws CtxkitError SCHEMA_ERROR when the schema is invalid and `onInvalid` is `'throw'`
 */
export function compactSchemaChecked(input: unknown, options: CompactSchemaOptions = {}, location: SchemaLocation = {}): SchemaCompaction {
  const inspection = inspectSchema(input, { maxDepth: Math.min(options.maxDepth ?? 256, 1000) });
  const errors = inspection.issues.filter((issue) => issue.severity === 'error');
  const where = { ...(location.toolIndex === undefined ? {} : { toolIndex: location.toolIndex }), ...(location.toolName === undefined ? {} : { toolName: location.toolName }) };
  if (errors.length > 0) {
    if (options.onInvalid === 'throw') {
      const tool = location.toolIndex === undefined ? 'schema' : `tool ${location.toolIndex}${location.toolName === undefined ? '' : ` (${JSON.stringify(location.toolName)})`}`;
      throw new CtxkitError({ code: 'SCHEMA_ERROR', source: 'schema', message: `${tool} cannot be compacted: ${describeIssues(errors)}`, details: errors });
    }
    const warnings = errors.map((issue) => compactionWarning({ ...where, path: issue.path, problem: issue.problem, action: 'passed-through' }));
    return { schema: input, compacted: false, droppedDialect: false, warnings };
  }
  const warnings = inspection.issues.map((issue) => compactionWarning({ ...where, path: issue.path, problem: issue.problem, action: 'compacted' }));
  if (!isRecord(input)) return { schema: input, compacted: true, droppedDialect: false, warnings };
  const located = (options.dropUnusedId ?? true) && !(options.keepKeywords ?? []).includes('$id') ? dropUnusedRootId(input) : input;
  const schema = (options.dropUnusedDefinitions ?? true) ? dropUnusedDefinitions(located) : located;
  const keep = new Set(options.keepKeywords ?? []);
  const dropped = new Set([...defaultAnnotationKeywords, ...(options.dropUsageAnnotations ? usageAnnotationKeywords : [])].filter((keyword) => !keep.has(keyword)));
  const dialect = declaredDialect(schema);
  const dropDialect =
    (options.dropDialect ?? true) && !keep.has('$schema') && (dialect === 'draft-07' || dialect === 'draft-2019-09' || dialect === 'draft-2020-12') && dialectDifference(schema) === undefined;
  const dropVacuous = (options.dropVacuousSubschemas ?? true) && vacuousIsSafe(schema);
  const compacted = compactNode(
    schema,
    '',
    { owners: location.toolName === undefined ? [] : [location.toolName] },
    { options, dropped, referencedPaths: inspection.referencedPaths, dropDialect, dropVacuous },
  );
  const shared = (options.shareRepeatedSubschemas ?? true) && isRecord(compacted) ? shareRepeatedSubschemas(compacted) : compacted;
  return { schema: shared, compacted: true, droppedDialect: dropDialect, warnings };
}

/**
 * Compacts one JSON Schema without changing what validates: drops annotation keywords (`title`,
 * `examples`, `default`, `$comment`) where they are keywords, trims parameter descriptions to their
 * first sentence, drops descriptions that only restate the schema, and drops a `$schema` line that
 * changes nothing. Validation keywords (`type`, `properties`, `required`, `enum`, `pattern`, bounds,
 * `$ref` and what it points at) are copied as they are. The input is never mutated.
 *
 * Gotcha: a property *named* `title` or `default` is a parameter and stays; only keywords go.
 * @throws CtxkitError SCHEMA_ERROR for an invalid schema when `onInvalid` is `'throw'`; by default
 * an invalid schema is returned unchanged and reported to `onWarning`
 * @example
 * ```ts
 * compactToolSchema({
 *   type: 'object',
 *   title: 'Search',
 *   properties: { title: { type: 'string', description: 'Issue title. Keep it short.', default: '' } },
 * });
 * // { type: 'object', properties: { title: { type: 'string', description: 'Issue title.' } } }
 * ```
 */
export function compactToolSchema<Schema>(schema: Schema, options: CompactSchemaOptions = {}): Schema {
  const result = compactSchemaChecked(schema, options);
  const report = options.onWarning ?? defaultWarningHandler;
  for (const warning of result.warnings) report(warning);
  return result.schema as Schema;
}
