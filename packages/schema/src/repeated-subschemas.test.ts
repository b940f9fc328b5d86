import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ajvCompiler } from '../test/ajv-compiler.ts';
import { generateInstances } from './bench/generate-instances.ts';
import { compactToolSchema } from './compact-tool-schema.ts';
import { shareRepeatedSubschemas } from './repeated-subschemas.ts';

// An address shape of about 300 characters, as a generator inlines it at every use.
const address = {
  type: 'object',
  properties: {
    street: { type: 'string', minLength: 1, description: 'street and number' },
    city: { type: 'string', minLength: 1, description: 'city or town' },
    postalCode: { type: 'string', pattern: '^[0-9A-Z -]{3,10}$' },
    country: { type: 'string', enum: ['DE', 'FR', 'GB', 'US'] },
  },
  required: ['street', 'city', 'country'],
  additionalProperties: false,
};
const order = { type: 'object', properties: { billing: address, shipping: address, note: { type: 'string' } }, required: ['billing'] };

describe('shareRepeatedSubschemas', () => {
  it('writes a long subschema repeated in one schema once, under $defs, with a $ref at each place', () => {
    const shared = shareRepeatedSubschemas(order);
    expect(shared).toEqual({
      type: 'object',
      properties: { billing: { $ref: '#/$defs/billing' }, shipping: { $ref: '#/$defs/billing' }, note: { type: 'string' } },
      required: ['billing'],
      $defs: { billing: address },
    });
    expect(JSON.stringify(shared).length).toBeLessThan(JSON.stringify(order).length);
  });

  it('uses definitions under draft-07, or where the schema already has them, without taking a name in use', () => {
    const draft7 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...order,
      definitions: { billing: { type: 'string' } },
      properties: { ...order.properties, other: { $ref: '#/definitions/billing' } },
    };
    const shared = shareRepeatedSubschemas(draft7);
    expect(shared.definitions).toEqual({ billing: { type: 'string' }, billing_2: address });
    expect(shared.properties).toMatchObject({ billing: { $ref: '#/definitions/billing_2' }, shipping: { $ref: '#/definitions/billing_2' }, other: { $ref: '#/definitions/billing' } });
  });

  it('also shares a copy that sits inside an existing definition', () => {
    const schema = { type: 'object', properties: { billing: address, customer: { $ref: '#/$defs/customer' } }, $defs: { customer: { type: 'object', properties: { home: address } } } };
    const shared = shareRepeatedSubschemas(schema);
    expect(shared.$defs).toEqual({ customer: { type: 'object', properties: { home: { $ref: '#/$defs/billing' } } }, billing: address });
    expect(JSON.stringify(shared).match(/"street":/g)).toHaveLength(1);
  });

  it('leaves a place another $ref points into, and shares the rest', () => {
    const schema = { ...order, properties: { ...order.properties, returns: address, city: { $ref: '#/properties/billing/properties/city' } } };
    const shared = shareRepeatedSubschemas(schema);
    expect(shared.properties).toMatchObject({ billing: address, shipping: { $ref: '#/$defs/shipping' }, returns: { $ref: '#/$defs/shipping' } });
  });

  it.each([
    ['an $id', { ...order, $id: 'https://example.com/order' }],
    ['an anchor', { ...order, properties: { ...order.properties, note: { $anchor: 'note', type: 'string' } } }],
    ['a reference to another document', { ...order, properties: { ...order.properties, note: { $ref: 'https://example.com/note.json' } } }],
    ['only short repeats', { type: 'object', properties: { a: { type: 'string', maxLength: 9 }, b: { type: 'string', maxLength: 9 } } }],
    ['no repeat', { type: 'object', properties: { billing: address } }],
  ])('leaves a schema with %s as it is', (_case, schema) => {
    expect(shareRepeatedSubschemas(schema)).toBe(schema);
  });

  it('is part of compactToolSchema by default, and off with shareRepeatedSubschemas: false', () => {
    expect(compactToolSchema(order, { onWarning: () => {} })).toHaveProperty(['properties', 'shipping'], { $ref: '#/$defs/billing' });
    expect(compactToolSchema(order, { onWarning: () => {}, shareRepeatedSubschemas: false })).toHaveProperty(['properties', 'shipping', 'type'], 'object');
  });
});

// Schemas that place one of a few long shapes at several nested places.
const long = (tag: string) => ({ ...address, properties: { ...address.properties, [tag]: { type: 'integer', minimum: 0 } } });
const shapes = [long('a'), long('b'), { type: 'array', items: long('c'), minItems: 1 }];
const placed: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...shapes),
    fc.constantFrom({ type: 'string' }, { type: 'integer', maximum: 5 }),
    fc.dictionary(fc.constantFrom('x', 'y', 'z', 'w'), tie('node'), { minKeys: 1, maxKeys: 3 }).map((properties) => ({ type: 'object', properties })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((anyOf) => ({ anyOf })),
  ),
})).node as fc.Arbitrary<Record<string, unknown>>;

describe('shareRepeatedSubschemas over generated schemas', () => {
  const { compile } = ajvCompiler();

  it('changes no verdict, leaves no reference dangling and never grows the schema', () => {
    fc.assert(
      fc.property(fc.array(placed, { minLength: 2, maxLength: 4 }), fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }), (nodes, values) => {
        const schema = { type: 'object', properties: Object.fromEntries(nodes.map((node, index) => [`p${index}`, node])) };
        const shared = shareRepeatedSubschemas(schema);
        expect(JSON.stringify(shared).length).toBeLessThanOrEqual(JSON.stringify(schema).length);
        for (const dialect of ['draft-07', 'draft-2020-12'] as const) {
          // Compiling resolves every reference: a dangling one would throw here.
          const original = compile(schema, dialect);
          const after = compile(shared, dialect);
          const { valid, invalid } = generateInstances(schema, { limit: 40 });
          for (const instance of [...valid, ...invalid].map((entry) => entry.instance).concat(values)) {
            expect(after(instance), JSON.stringify(instance)).toBe(original(instance));
          }
        }
      }),
      { numRuns: 120 },
    );
    // 480 ajv compilations: about 7 s alone, 38 s seen in CI on a loaded machine; the timeout only guards a hang.
  }, 180_000);
});
