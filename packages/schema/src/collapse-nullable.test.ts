import { describe, expect, it } from 'vitest';
import { ajvCompiler } from '../test/ajv-compiler.ts';
import { collapseNullable } from './collapse-nullable.ts';
import { compactToolSchema } from './compact-tool-schema.ts';
import { generateInstances } from './bench/generate-instances.ts';
import { checkValidationAgreement } from './bench/validation-agreement.ts';

const optional = (inner: Record<string, unknown>, outer: Record<string, unknown> = {}) => ({ anyOf: [inner, { type: 'null' }], default: null, title: 'Field', ...outer });

describe('collapseNullable', () => {
  it('writes Optional[X] as one schema with a type list, keeping the keywords of X', () => {
    expect(collapseNullable(optional({ type: 'integer', minimum: 1 }))).toEqual({ type: ['integer', 'null'], minimum: 1, default: null, title: 'Field' });
    expect(collapseNullable({ oneOf: [{ type: 'null' }, { type: 'array', items: { type: 'string' } }] })).toEqual({ type: ['array', 'null'], items: { type: 'string' } });
  });

  it.each([
    ['an enum, which rejects null', optional({ type: 'string', enum: ['a', 'b'] })],
    ['a const', optional({ type: 'string', const: 'a' })],
    ['a $ref', optional({ $ref: '#/$defs/Color' })],
    ['a type list', optional({ type: ['string', 'integer'] })],
    ['an outer type', optional({ type: 'string' }, { type: 'string' })],
    ['a keyword on both levels', optional({ type: 'string', maxLength: 3 }, { maxLength: 5 })],
    ['a keyword of another type', optional({ type: 'string', minimum: 3 })],
    ['three branches', { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] }],
    ['no null branch', { anyOf: [{ type: 'string' }, { type: 'integer' }] }],
    ['a null branch with a constraint', { anyOf: [{ type: 'string' }, { type: 'null', not: {} }] }],
  ])('leaves a union with %s alone', (_case, schema) => {
    expect(collapseNullable(schema)).toBeUndefined();
  });

  it('collapses in one pass when a branch description compacts to nothing (found by a property-test run)', () => {
    const schema = { type: 'array', items: { anyOf: [{ type: 'string', description: '\n' }, { type: 'null' }], description: 'Path' } };
    const once = compactToolSchema(schema);
    expect(once).toEqual({ type: 'array', items: { type: ['string', 'null'], description: 'Path' } });
    expect(compactToolSchema(once)).toEqual(once);
  });

  it('leaves a union that a $ref points into', () => {
    expect(collapseNullable(optional({ type: 'string' }), (keyword) => keyword === 'anyOf')).toBeUndefined();
    const schema = { type: 'object', properties: { a: optional({ type: 'string' }), b: { $ref: '#/properties/a/anyOf/0' } } };
    expect(compactToolSchema(schema)).toMatchObject({ properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } });
  });

  it('validates exactly as before, checked with ajv, including the unions it must not touch', () => {
    const schema = {
      type: 'object',
      properties: {
        limit: optional({ type: 'integer', minimum: 1, maximum: 100 }),
        name: optional({ type: 'string', minLength: 2, pattern: '^[a-z]+$' }),
        tags: optional({ type: 'array', items: { type: 'string' }, maxItems: 3 }),
        filter: optional({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
        color: optional({ type: 'string', enum: ['red', 'blue'] }),
        flag: { oneOf: [{ type: 'boolean' }, { type: 'null' }] },
      },
      required: ['limit'],
    };
    const compacted = compactToolSchema(schema);
    expect(compacted.properties.limit).toEqual({ type: ['integer', 'null'], minimum: 1, maximum: 100 });
    expect(compacted.properties.color).toHaveProperty('anyOf');
    const generated = generateInstances(schema);
    // By hand too: null, and values each keyword of X rejects, on every optional property.
    const base = { limit: 5 };
    const edge = [
      { limit: null },
      { limit: 0 },
      { limit: 101 },
      { limit: 'x' },
      { ...base, name: null },
      { ...base, name: 'a' },
      { ...base, name: 'AB' },
      { ...base, name: 3 },
      { ...base, tags: null },
      { ...base, tags: ['a', 'b', 'c', 'd'] },
      { ...base, tags: [1] },
      { ...base, filter: null },
      { ...base, filter: {} },
      { ...base, filter: { q: 1 } },
      { ...base, color: null },
      { ...base, color: 'green' },
      { ...base, flag: null },
      { ...base, flag: 'yes' },
      { ...base, flag: true },
    ].map((instance, index) => ({ instance, note: `edge ${index}` }));
    const instances = { valid: generated.valid, invalid: [...generated.invalid, ...edge] };
    const report = checkValidationAgreement({ original: schema, compacted, compile: ajvCompiler().compile, instances });
    expect(report.disagreements).toEqual([]);
    expect(report.agreed).toBe(report.checked);
    expect(report.checked).toBeGreaterThan(10);
    expect(report.acceptedByOriginal).toBeGreaterThan(0);
    expect(report.rejectedByOriginal).toBeGreaterThan(0);
  });

  it('can be turned off', () => {
    expect(compactToolSchema({ type: 'object', properties: { a: optional({ type: 'string' }) } }, { collapseNullable: false }).properties.a).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });
});
