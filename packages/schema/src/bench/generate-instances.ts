import { samplePattern, violatePattern } from './regex-sample.ts';
import { isRecord } from '../schema-keywords.ts';

/** One generated instance, with a note on how it was built. */
export interface GeneratedInstance {
  instance: unknown;
  /** `minimal`, `all properties`, `/owner missing (required)`, `/page wrong type (string)`, ... */
  note: string;
}

/** Instances built from a schema: meant-valid ones, and invalid ones made by breaking one rule each. */
export interface GeneratedInstances {
  /** Built to satisfy the schema (minimal, with every property, each enum value); a validator has the last word. */
  valid: GeneratedInstance[];
  /** Each breaks one rule of a valid instance: a required property missing, a wrong type, an enum or bound violated. */
  invalid: GeneratedInstance[];
}

/** Options for {@link generateInstances}. */
export interface GenerateInstancesOptions {
  /** Most instances returned in all. @default 400 */
  limit?: number;
  /** How deep optional properties are filled in before only required ones are. @default 6 */
  fullDepth?: number;
}

type Schema = Record<string, unknown>;
const formatSamples: Record<string, string> = {
  'date-time': '2024-01-02T03:04:05Z',
  date: '2024-01-02',
  time: '03:04:05Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/a',
  'uri-reference': '/a',
  iri: 'https://example.com/a',
  'iri-reference': '/a',
  url: 'https://example.com/a',
  'uri-template': 'https://example.com/{id}',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  regex: 'a+',
  'json-pointer': '/a',
  'relative-json-pointer': '0/a',
  byte: 'YQ==',
  int32: '1',
  int64: '1',
};

interface Generator {
  root: unknown;
  fullDepth: number;
}

function resolve(generator: Generator, reference: string): unknown {
  if (!reference.startsWith('#')) return true; // another document: anything goes
  const fragment = decodeURIComponent(reference.slice(1));
  if (fragment === '' || fragment.startsWith('/')) {
    let node: unknown = generator.root;
    for (const raw of fragment.split('/').slice(1)) {
      const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
      node = Array.isArray(node) ? node[Number(segment)] : isRecord(node) ? node[segment] : undefined;
    }
    return node ?? true;
  }
  // An anchor: the first subschema that declares it.
  const stack: unknown[] = [generator.root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isRecord(node)) {
      if (node.$anchor === fragment || node.$id === `#${fragment}` || node.$dynamicAnchor === fragment) return node;
      stack.push(...Object.values(node));
    }
  }
  return true;
}

/** The schema with `$ref` and `allOf` folded in, so one object says what an instance must be. */
function effective(generator: Generator, schema: unknown, depth = 0): unknown {
  if (!isRecord(schema) || depth > 20) return schema;
  let result: Schema = schema;
  const reference = result.$ref ?? result.$dynamicRef ?? result.$recursiveRef;
  if (typeof reference === 'string') {
    const { $ref: _ref, $dynamicRef: _dynamic, $recursiveRef: _recursive, ...rest } = result;
    const target = effective(generator, resolve(generator, reference), depth + 1);
    if (target === false) return false;
    result = isRecord(target) ? merge(target, rest) : rest;
  }
  if (Array.isArray(result.allOf)) {
    const { allOf, ...rest } = result;
    let merged: Schema = rest;
    for (const part of allOf) {
      const resolved = effective(generator, part, depth + 1);
      if (resolved === false) return false;
      if (isRecord(resolved)) merged = merge(merged, resolved);
    }
    result = merged;
  }
  return result;
}

function merge(base: Schema, extra: Schema): Schema {
  const result: Schema = { ...base, ...extra };
  if (isRecord(base.properties) && isRecord(extra.properties)) result.properties = { ...base.properties, ...extra.properties };
  if (Array.isArray(base.required) && Array.isArray(extra.required)) result.required = [...new Set([...base.required, ...extra.required])];
  return result;
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === 'string');
  if (schema.properties !== undefined || schema.required !== undefined || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items !== undefined || schema.prefixItems !== undefined || schema.minItems !== undefined) return ['array'];
  if (schema.pattern !== undefined || schema.minLength !== undefined || schema.format !== undefined) return ['string'];
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return ['number'];
  return [];
}

type Sample = { ok: true; value: unknown } | { ok: false };
const none: Sample = { ok: false };

function sample(generator: Generator, raw: unknown, depth: number, full: boolean, variant: number): Sample {
  if (depth > 40) return none;
  const schema = effective(generator, raw);
  if (schema === false) return none;
  if (schema === true || !isRecord(schema)) return { ok: true, value: 'any' };
  if ('const' in schema) return { ok: true, value: schema.const };
  if (Array.isArray(schema.enum)) return schema.enum.length === 0 ? none : { ok: true, value: schema.enum[variant % schema.enum.length] };
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const { [keyword]: _branches, ...rest } = schema;
    for (let offset = 0; offset < branches.length; offset++) {
      const branch = effective(generator, branches[(variant + offset) % branches.length]);
      if (branch === false) continue;
      const attempt = sample(generator, isRecord(branch) ? merge(rest, branch) : rest, depth + 1, full, variant);
      if (attempt.ok) return attempt;
    }
    return none;
  }
  const types = typesOf(schema);
  const type = types.length === 0 ? (isRecord(schema.not) ? 'object' : 'string') : (types.find((entry) => entry !== 'null') ?? types[0]!);
  switch (type) {
    case 'object':
      return sampleObject(generator, schema, depth, full && depth < generator.fullDepth, variant);
    case 'array':
      return sampleArray(generator, schema, depth, full && depth < generator.fullDepth, variant);
    case 'string':
      return sampleString(schema, variant);
    case 'integer':
    case 'number':
      return { ok: true, value: sampleNumber(schema, type === 'integer') };
    case 'boolean':
      return { ok: true, value: variant % 2 === 0 };
    case 'null':
      return { ok: true, value: null };
    default:
      return none;
  }
}

function sampleObject(generator: Generator, schema: Schema, depth: number, full: boolean, variant: number): Sample {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  const names = full ? [...new Set([...required, ...Object.keys(properties)])] : required;
  const entries: [string, unknown][] = [];
  for (const name of names) {
    const propertySchema = Object.hasOwn(properties, name) ? properties[name] : schema.additionalProperties === false ? undefined : (schema.additionalProperties ?? true);
    if (propertySchema === undefined) return none;
    const value = sample(generator, propertySchema, depth + 1, full, variant);
    if (value.ok) entries.push([name, value.value]);
    else if (required.includes(name)) return none;
  }
  const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  for (let extra = 0; entries.length < minProperties && schema.additionalProperties !== false; extra++) {
    const value = sample(generator, isRecord(schema.additionalProperties) ? schema.additionalProperties : true, depth + 1, false, variant);
    if (!value.ok) break;
    entries.push([`extra${extra}`, value.value]);
  }
  return { ok: true, value: Object.fromEntries(entries) };
}

function sampleArray(generator: Generator, schema: Schema, depth: number, full: boolean, variant: number): Sample {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const rest = Array.isArray(schema.items) ? (schema.additionalItems ?? true) : (schema.items ?? true);
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
  const count = Math.min(maxItems, Math.max(minItems, full ? Math.max(1, tuple.length) : 0, schema.contains === undefined ? 0 : 1));
  const items: unknown[] = [];
  for (let index = 0; index < count; index++) {
    const itemSchema = index < tuple.length ? tuple[index] : rest;
    const value = sample(generator, itemSchema, depth + 1, full, variant + index);
    if (!value.ok) return index < minItems ? none : { ok: true, value: items };
    items.push(value.value);
  }
  if (schema.contains !== undefined && count > 0) {
    const value = sample(generator, schema.contains, depth + 1, false, variant);
    if (value.ok) items[0] = value.value;
  }
  return { ok: true, value: items };
}

function sampleString(schema: Schema, variant: number): Sample {
  let text: string | undefined;
  if (typeof schema.pattern === 'string') text = samplePattern(schema.pattern, variant);
  if (text === undefined && typeof schema.format === 'string') text = formatSamples[schema.format];
  text ??= variant % 2 === 0 ? 'text' : 'other text';
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  if ([...text].length < minLength) text = text + 'a'.repeat(minLength - [...text].length);
  if ([...text].length > maxLength) text = [...text].slice(0, maxLength).join('');
  return { ok: true, value: text };
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  let low = typeof schema.minimum === 'number' ? schema.minimum : Number.NEGATIVE_INFINITY;
  if (typeof schema.exclusiveMinimum === 'number') low = Math.max(low, schema.exclusiveMinimum + step);
  let high = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
  if (typeof schema.exclusiveMaximum === 'number') high = Math.min(high, schema.exclusiveMaximum - step);
  let value = Number.isFinite(low) ? low : Number.isFinite(high) ? Math.min(high, 1) : 1;
  if (integer) value = Math.ceil(value);
  const multipleOf = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (multipleOf !== undefined) value = Math.ceil(value / multipleOf) * multipleOf;
  return value;
}

/** A value of a JSON type the schema does not allow, with the type's name; undefined when every type is allowed. */
function wrongType(schema: Schema): [unknown, string] | undefined {
  const allowed = new Set(typesOf(schema));
  if (allowed.size === 0) return undefined;
  if (allowed.has('number')) allowed.add('integer');
  const candidates: [unknown, string, string[]][] = [
    ['wrong', 'string', ['string']],
    [12345, 'integer', ['integer', 'number']],
    [1.5, 'number', ['number']],
    [true, 'boolean', ['boolean']],
    [null, 'null', ['null']],
    [{ wrong: true }, 'object', ['object']],
    [['wrong'], 'array', ['array']],
  ];
  const found = candidates.find(([, , types]) => types.every((type) => !allowed.has(type)));
  return found && [found[0], found[1]];
}

interface Mutation {
  value: unknown;
  note: string;
}

/** Invalid variants of one value: each breaks one rule of its schema, here or further down. */
function mutations(generator: Generator, raw: unknown, value: unknown, path: string, depth: number): Mutation[] {
  const schema = effective(generator, raw);
  if (!isRecord(schema) || depth > 30) return [];
  const found: Mutation[] = [];
  const where = path === '' ? '(root)' : path;
  const wrong = wrongType(schema);
  if (wrong) found.push({ value: wrong[0], note: `${where} wrong type (${wrong[1]})` });
  if (Array.isArray(schema.enum)) {
    const outside = schema.enum.every((entry) => typeof entry === 'number') ? Math.max(...(schema.enum as number[])) + 1 : '__not_in_enum__';
    found.push({ value: outside, note: `${where} not in enum` });
  }
  if ('const' in schema) found.push({ value: typeof schema.const === 'string' ? `${schema.const}__other` : '__not_const__', note: `${where} not the const` });
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && schema.minLength > 0) found.push({ value: '', note: `${where} shorter than minLength` });
    if (typeof schema.maxLength === 'number') found.push({ value: 'x'.repeat(schema.maxLength + 1), note: `${where} longer than maxLength` });
    if (typeof schema.pattern === 'string') {
      const outside = violatePattern(schema.pattern);
      if (outside !== undefined) found.push({ value: outside, note: `${where} does not match pattern` });
    }
    if (typeof schema.format === 'string' && formatSamples[schema.format] !== undefined) found.push({ value: 'not a valid value', note: `${where} not a ${schema.format}` });
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number') found.push({ value: schema.minimum - 1, note: `${where} below minimum` });
    if (typeof schema.maximum === 'number') found.push({ value: schema.maximum + 1, note: `${where} above maximum` });
    if (typeof schema.exclusiveMinimum === 'number') found.push({ value: schema.exclusiveMinimum, note: `${where} at exclusiveMinimum` });
    if (typeof schema.exclusiveMaximum === 'number') found.push({ value: schema.exclusiveMaximum, note: `${where} at exclusiveMaximum` });
    if (typesOf(schema).includes('integer') && !typesOf(schema).includes('number')) found.push({ value: value + 0.5, note: `${where} not an integer` });
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && schema.minItems > 0) found.push({ value: [], note: `${where} fewer than minItems` });
    if (typeof schema.maxItems === 'number' && value.length > 0) {
      found.push({ value: Array.from({ length: schema.maxItems + 1 }, () => value[0]), note: `${where} more than maxItems` });
    }
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    value.forEach((item, index) => {
      for (const inner of mutations(generator, index < tuple.length ? tuple[index] : rest, item, `${path}/${index}`, depth + 1)) {
        found.push({ value: value.map((entry, position) => (position === index ? inner.value : entry)), note: inner.note });
      }
    });
  }
  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const name of Object.keys(value)) {
      if (required.includes(name)) {
        const { [name]: _missing, ...rest } = value;
        found.push({ value: rest, note: `${path}/${name} missing (required)` });
      }
      const propertySchema = Object.hasOwn(properties, name) ? properties[name] : schema.additionalProperties;
      for (const inner of mutations(generator, propertySchema, value[name], `${path}/${name}`, depth + 1)) {
        found.push({ value: { ...value, [name]: inner.value }, note: inner.note });
      }
    }
    if (schema.additionalProperties === false) found.push({ value: { ...value, unexpected_property: 1 }, note: `${where} extra property (additionalProperties: false)` });
    if (typeof schema.maxProperties === 'number') {
      const extra = Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, index) => [`extra${index}`, 1]));
      found.push({ value: { ...value, ...extra }, note: `${where} more than maxProperties` });
    }
  }
  return found;
}

/**
 * Builds instances of a schema for checking that two schemas validate alike: valid ones (only the
 * required properties, every property, each enum value and `anyOf` branch in turn) and, from each,
 * invalid ones that break one rule: each required property missing, each type wrong, each enum,
 * const, bound, length, pattern or format violated, an extra property where none are allowed. Local
 * `$ref`s and `allOf` are followed. Generation is best effort (a regex it cannot sample, a contradictory
 * schema), so a validator decides what is really valid; the notes say what each instance was meant to be.
 * @example
 * ```ts
 * const { valid, invalid } = generateInstances({ type: 'object', required: ['q'], properties: { q: { type: 'string' } } });
 * // valid: [{ instance: { q: 'text' }, note: 'minimal' }, ...]
 * // invalid: [{ instance: 'wrong', note: '(root) wrong type (string)' }, { instance: {}, note: '/q missing (required)' }, ...]
 * ```
 */
export function generateInstances(schema: unknown, options: GenerateInstancesOptions = {}): GeneratedInstances {
  const generator: Generator = { root: schema, fullDepth: options.fullDepth ?? 6 };
  const limit = options.limit ?? 400;
  const valid: GeneratedInstance[] = [];
  const seen = new Set<string>();
  const add = (list: GeneratedInstance[], instance: unknown, note: string) => {
    const key = JSON.stringify(instance) ?? 'undefined';
    if (seen.has(key) || valid.length + invalidCount() >= limit) return;
    seen.add(key);
    list.push({ instance, note });
  };
  const invalid: GeneratedInstance[] = [];
  const invalidCount = () => invalid.length;
  const bases: [boolean, number, string][] = [
    [false, 0, 'minimal'],
    [true, 0, 'all properties'],
    [true, 1, 'all properties, second variant'],
    [true, 2, 'all properties, third variant'],
  ];
  for (const [full, variant, note] of bases) {
    const result = sample(generator, schema, 0, full, variant);
    if (result.ok) add(valid, result.value, note);
  }
  for (const base of [...valid]) {
    for (const mutation of mutations(generator, schema, base.instance, '', 0)) add(invalid, mutation.value, mutation.note);
  }
  return { valid, invalid };
}
