import { describe, expect, it } from 'vitest';
import { inspectSchema } from './inspect-schema.ts';

const errors = (schema: unknown) => inspectSchema(schema).issues.filter((issue) => issue.severity === 'error');

describe('inspectSchema', () => {
  it('accepts booleans and ordinary schemas', () => {
    expect(inspectSchema(true).issues).toEqual([]);
    expect(inspectSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }).issues).toEqual([]);
  });

  it('reports a schema that is not an object', () => {
    expect(errors('string')).toEqual([{ path: '', problem: 'a schema must be an object or a boolean, got the string "string"', severity: 'error' }]);
    expect(errors(null)[0]!.problem).toMatch(/got null/);
    expect(errors([{ type: 'string' }])[0]!.problem).toMatch(/got an array/);
  });

  it('reports a subschema of the wrong kind, with its path', () => {
    expect(errors({ properties: { a: 'string' } })).toEqual([{ path: '/properties/a', problem: 'a subschema must be an object or a boolean, got the string "string"', severity: 'error' }]);
    expect(errors({ properties: [] })[0]).toMatchObject({ path: '/properties', problem: 'must be an object of schemas, got an array' });
    expect(errors({ anyOf: { type: 'string' } })[0]).toMatchObject({ path: '/anyOf' });
    expect(errors({ items: 3 })[0]).toMatchObject({ path: '/items', problem: 'must be a schema or an array of schemas, got a number' });
  });

  it('reports a cycle instead of overflowing the stack', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    expect(errors(schema)).toEqual([{ path: '/properties/self', problem: 'refers back to an object that contains it (a cycle); a schema must be a JSON tree', severity: 'error' }]);
  });

  it('accepts a shared (diamond) object, which is not a cycle', () => {
    const shared = { type: 'string' };
    expect(errors({ properties: { a: shared, b: shared } })).toEqual([]);
  });

  it('reports nesting past the limit without recursing', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 100_000; level++) deep = { items: deep };
    expect(() => inspectSchema(deep)).not.toThrow();
    expect(errors(deep)[0]!.problem).toBe('is nested more than 256 levels deep');
    expect(inspectSchema(deep, { maxDepth: 1_000_000 }).issues).toEqual([]);
  });

  it('reports values JSON cannot hold', () => {
    expect(errors({ type: 'string', default: () => 1 })[0]).toMatchObject({ path: '/default', problem: 'holds a function, which is not JSON data' });
    expect(errors({ maximum: Number.NaN })[0]).toMatchObject({ path: '/maximum', problem: 'holds NaN, which is not JSON data' });
  });

  it('reports a $ref that points nowhere, naming where the lookup stopped', () => {
    expect(errors({ properties: { a: { $ref: '#/$defs/missing' } }, $defs: { present: {} } })).toEqual([
      { path: '/properties/a/$ref', problem: '"#/$defs/missing" points nowhere: /$defs has no "missing"', severity: 'error' },
    ]);
    expect(errors({ $ref: '#nowhere' })[0]!.problem).toBe('"#nowhere" points nowhere: no $anchor or $id named "nowhere"');
    expect(errors({ $ref: 42 })[0]).toMatchObject({ path: '/$ref', problem: 'must be a URI string, got a number' });
  });

  it('resolves pointers, anchors, escaped segments and nested $id resources', () => {
    const schema = {
      $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' }, named: { $anchor: 'node', type: 'object' }, old: { $id: '#legacy' } },
      properties: {
        slash: { $ref: '#/$defs/a~1b' },
        tilde: { $ref: '#/$defs/c~0d' },
        anchor: { $ref: '#node' },
        legacy: { $ref: '#legacy' },
        root: { $ref: '#' },
        nested: { $id: 'https://example.com/nested.json', $defs: { inner: { type: 'string' } }, $ref: '#/$defs/inner' },
        absolute: { $ref: 'https://example.com/nested.json#/$defs/inner' },
      },
    };
    const inspection = inspectSchema(schema);
    expect(inspection.issues).toEqual([]);
    expect([...inspection.referencedPaths]).toEqual(expect.arrayContaining(['/$defs', '/$defs/a~1b', '/$defs/c~0d', '/$defs/named', '/properties/nested/$defs/inner']));
  });

  it('warns about, but accepts, a $ref to another document', () => {
    expect(inspectSchema({ $ref: 'https://example.com/other.json' }).issues).toEqual([
      { path: '/$ref', problem: '"https://example.com/other.json" points to another document; it is not followed (left as it is)', severity: 'warning' },
    ]);
  });

  it('treats a property named $ref as a parameter, not a keyword', () => {
    expect(inspectSchema({ properties: { $ref: { type: 'string' }, $id: { type: 'string' } } }).issues).toEqual([]);
  });
});
