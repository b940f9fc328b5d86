import { describe, expect, it } from 'vitest';
import { ajvCompiler } from '../../test/ajv-compiler.ts';
import { generateInstances } from './generate-instances.ts';

const { compile } = ajvCompiler();

describe('generateInstances', () => {
  const schema = {
    type: 'object',
    properties: {
      owner: { type: 'string', minLength: 1 },
      page: { type: 'integer', minimum: 1, maximum: 100 },
      state: { type: 'string', enum: ['open', 'closed'] },
      labels: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, maxItems: 3 },
      since: { type: 'string', format: 'date-time' },
      filter: { type: 'object', properties: { actor: { type: 'string' } }, required: ['actor'], additionalProperties: false },
    },
    required: ['owner'],
    additionalProperties: false,
  };

  it('builds valid instances that a validator accepts', () => {
    const validate = compile(schema, 'draft-2020-12');
    const { valid } = generateInstances(schema);
    expect(valid.map((entry) => entry.note)).toEqual(['minimal', 'all properties', 'all properties, second variant']);
    expect(valid[0]!.instance).toEqual({ owner: 'text' });
    for (const entry of valid) expect(validate(entry.instance), entry.note).toBe(true);
  });

  it('breaks one rule per invalid instance, and a validator rejects every one', () => {
    const validate = compile(schema, 'draft-2020-12');
    const { invalid } = generateInstances(schema);
    const notes = invalid.map((entry) => entry.note);
    expect(notes).toEqual(
      expect.arrayContaining([
        '(root) wrong type (string)',
        '/owner missing (required)',
        '/owner wrong type (integer)',
        '/owner shorter than minLength',
        '/page below minimum',
        '/page above maximum',
        '/page not an integer',
        '/state not in enum',
        '/labels more than maxItems',
        '/labels/0 does not match pattern',
        '/since not a date-time',
        '/filter/actor missing (required)',
        '/filter extra property (additionalProperties: false)',
        '(root) extra property (additionalProperties: false)',
      ]),
    );
    for (const entry of invalid) expect(validate(entry.instance), entry.note).toBe(false);
  });

  it('follows $ref, allOf and anyOf, and stops on recursive schemas', () => {
    const recursive = {
      $defs: { node: { type: 'object', properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['value'] } },
      allOf: [{ $ref: '#/$defs/node' }, { properties: { kind: { anyOf: [{ const: 'leaf' }, { type: 'integer', minimum: 5 }] } }, required: ['kind'] }],
    };
    const validate = compile(recursive, 'draft-2020-12');
    const { valid, invalid } = generateInstances(recursive);
    expect(valid.length).toBeGreaterThan(1);
    for (const entry of valid) expect(validate(entry.instance), JSON.stringify(entry.instance)).toBe(true);
    expect(invalid.some((entry) => entry.note === '/kind missing (required)')).toBe(true);
  });

  it('caps how many instances it returns', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`p${index}`, { type: 'string' }])) };
    const { valid, invalid } = generateInstances(wide, { limit: 50 });
    expect(valid.length + invalid.length).toBe(50);
  });

  it('gives no valid instance for a schema nothing satisfies', () => {
    expect(generateInstances(false).valid).toEqual([]);
    expect(generateInstances({ enum: [] }).valid).toEqual([]);
  });
});
