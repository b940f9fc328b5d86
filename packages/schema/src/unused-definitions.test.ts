import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ajvCompiler } from '../test/ajv-compiler.ts';
import { generateInstances } from './bench/generate-instances.ts';
import { compactToolSchema } from './compact-tool-schema.ts';
import { dropUnusedDefinitions, dropUnusedRootId } from './unused-definitions.ts';

const quiet = { onWarning: () => {} };
const text = { type: 'string' };

describe('dropUnusedDefinitions', () => {
  it('drops the definitions nothing reaches, and keeps those reached directly or through another', () => {
    const schema = {
      type: 'object',
      properties: { parent: { $ref: '#/$defs/parent' } },
      $defs: {
        parent: { type: 'object', properties: { rich: { $ref: '#/$defs/richText' } } },
        richText: text,
        block: { type: 'object', properties: { child: { $ref: '#/$defs/orphan' } } },
        orphan: text,
      },
    };
    expect(dropUnusedDefinitions(schema)).toEqual({ ...schema, $defs: { parent: schema.$defs.parent, richText: text } });
  });

  it('drops a definitions map left empty, draft-07 `definitions` too', () => {
    expect(dropUnusedDefinitions({ type: 'object', definitions: { unused: text } })).toEqual({ type: 'object' });
    expect(dropUnusedDefinitions({ type: 'object', $defs: { a: text }, definitions: { b: text }, properties: { x: { $ref: '#/definitions/b' } } })).toEqual({
      type: 'object',
      definitions: { b: text },
      properties: { x: { $ref: '#/definitions/b' } },
    });
  });

  it('reads escaped and percent-encoded names, a pointer into a definition, and a reference to the whole map', () => {
    const defs = { 'a/b': text, 'c d': text, 'e~f': { properties: { g: text } }, unused: text };
    const refs = { one: { $ref: '#/$defs/a~1b' }, two: { $ref: '#/$defs/c%20d' }, three: { $ref: '#/$defs/e~0f/properties/g' } };
    const { unused: _unused, ...used } = defs;
    expect(dropUnusedDefinitions({ properties: refs, $defs: defs })).toEqual({ properties: refs, $defs: used });
    const whole = { properties: { all: { $ref: '#/$defs' } }, $defs: defs };
    expect(dropUnusedDefinitions(whole)).toBe(whole);
  });

  it('leaves the schema alone when an $id, an anchor or another document could reach a definition', () => {
    for (const schema of [
      { $id: 'https://example.com/tool', $defs: { a: text } },
      { properties: { x: { $ref: '#name' } }, $defs: { a: { $anchor: 'name', type: 'string' } } },
      { properties: { x: { $ref: 'common.json#/$defs/a' } }, $defs: { a: text } },
      { $dynamicAnchor: 'meta', $defs: { a: text } },
    ]) {
      expect(dropUnusedDefinitions(schema)).toBe(schema);
    }
  });

  it('is not stopped by a property named `id`, and returns the same object when everything is used', () => {
    const schema = { properties: { id: { type: 'string' }, node: { $ref: '#/$defs/node' } }, $defs: { node: text, spare: text } };
    expect(dropUnusedDefinitions(schema)).toEqual({ properties: schema.properties, $defs: { node: text } });
    const used = { properties: { node: { $ref: '#/$defs/node' } }, $defs: { node: text } };
    expect(dropUnusedDefinitions(used)).toBe(used);
  });

  it('is part of compactToolSchema by default, and off with dropUnusedDefinitions: false', () => {
    const schema = { type: 'object', properties: { q: text }, $defs: { unused: { type: 'object', description: 'A shared component.' } } };
    expect(compactToolSchema(schema, quiet)).toEqual({ type: 'object', properties: { q: text } });
    expect(compactToolSchema(schema, { ...quiet, dropUnusedDefinitions: false })).toEqual({ ...schema, $defs: { unused: { type: 'object', description: 'shared component' } } });
  });
});

// Definitions that refer to later ones only (no cycles), some reached from the properties, some not.
const leaf = fc.constantFrom<Record<string, unknown>>({ type: 'string', minLength: 2 }, { type: 'integer', maximum: 3 }, { enum: ['a', 'b', null] }, { type: 'object', required: ['k'] });
const definitionsArbitrary = fc.array(fc.tuple(leaf, fc.array(fc.nat(7), { maxLength: 2 })), { minLength: 1, maxLength: 6 }).map((entries) =>
  Object.fromEntries(
    entries.map(([schema, targets], index) => {
      const later = targets.map((target) => index + 1 + target).filter((target) => target < entries.length);
      return [`d${index}`, later.length === 0 ? schema : { allOf: [schema, ...later.map((target) => ({ $ref: `#/$defs/d${target}` }))] }];
    }),
  ),
);

describe('dropUnusedDefinitions over generated schemas', () => {
  const { compile } = ajvCompiler();

  it('changes no verdict and leaves no reference dangling', () => {
    fc.assert(
      fc.property(definitionsArbitrary, fc.array(fc.nat(7), { maxLength: 3 }), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 6 }), (defs, picks, values) => {
        const names = Object.keys(defs);
        const properties = Object.fromEntries(picks.map((pick, index) => [`p${index}`, { $ref: `#/$defs/${names[pick % names.length]}` }]));
        const schema = { type: 'object', properties, $defs: defs };
        const pruned = dropUnusedDefinitions(schema);
        // Compiling resolves every reference: a dropped definition still referenced would throw here.
        const original = compile(schema, 'draft-2020-12');
        const smaller = compile(pruned, 'draft-2020-12');
        for (const name of picks.map((pick) => names[pick % names.length]!)) expect(pruned.$defs).toHaveProperty([name]);
        const { valid, invalid } = generateInstances(schema, { limit: 40 });
        for (const instance of [...valid, ...invalid].map((entry) => entry.instance).concat(values)) {
          expect(smaller(instance), JSON.stringify(instance)).toBe(original(instance));
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('dropUnusedDefinitions and data keys', () => {
  it('keeps a root key named __proto__ as data', () => {
    const schema = JSON.parse('{"type":"object","__proto__":{"x":1},"$defs":{"unused":{"type":"string"}}}') as Record<string, unknown>;
    const pruned = dropUnusedDefinitions(schema);
    expect(Object.hasOwn(pruned, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(pruned)).toBe(Object.prototype);
    expect(pruned).not.toHaveProperty('$defs');
  });
});

describe('dropUnusedRootId', () => {
  const published = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://example.com/schemas/result.schema.json',
    type: 'object',
    properties: { error: { $ref: '#/$defs/error' } },
    $defs: { error: { type: ['string', 'null'], maxLength: 200 }, unused: { type: 'string' } },
  };

  it('drops a root $id when every $ref is a local pointer, and validates the same', () => {
    const { $id: _id, ...rest } = published;
    expect(dropUnusedRootId(published)).toEqual(rest);
    const { compile } = ajvCompiler();
    const before = compile(published, 'draft-2020-12');
    const after = compile(dropUnusedRootId(published), 'draft-2020-12');
    for (const instance of [{}, { error: null }, { error: 'x'.repeat(201) }, { error: 3 }, 'x']) expect(after(instance)).toBe(before(instance));
  });

  it('lets the rules that stand down on $id apply: unused definitions go in compactToolSchema', () => {
    expect(compactToolSchema(published, quiet)).toEqual({ type: 'object', properties: { error: { $ref: '#/$defs/error' } }, $defs: { error: { type: ['string', 'null'], maxLength: 200 } } });
    expect(compactToolSchema(published, { ...quiet, dropUnusedId: false })).toHaveProperty('$id');
    expect(compactToolSchema(published, { ...quiet, keepKeywords: ['$id'] })).toHaveProperty('$id');
  });

  it.each([
    ['a $ref resolved against the base', { properties: { error: { $ref: 'error.schema.json' } } }],
    ['a $ref to another document', { properties: { error: { $ref: 'https://example.com/schemas/error.json#/x' } } }],
    ['an $id below the root', { properties: { error: { $id: 'error', type: 'string' } } }],
    ['an anchor', { properties: { error: { $anchor: 'error', type: 'string' } } }],
  ])('keeps it with %s', (_case, extra) => {
    const schema = { ...published, ...extra };
    expect(dropUnusedRootId(schema)).toBe(schema);
  });
});
