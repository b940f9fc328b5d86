import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ajvCompiler } from '../test/ajv-compiler.ts';
import type { CompactionWarning } from './compaction-warning.ts';
import { compactSchemaChecked, compactToolSchema } from './compact-tool-schema.ts';
import { generateInstances } from './bench/generate-instances.ts';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const quiet = { onWarning: () => {} };
const conditional = (inner: object) => Object.fromEntries(['if', 'then', 'else'].map((keyword) => [keyword, inner]));
const note = { title: 'T', examples: ['x'], default: 'd', $comment: 'c', description: 'Kept sentence. Dropped sentence.' };
const compactNote = { description: 'Kept sentence' };

describe('compactToolSchema: annotations', () => {
  it('drops title, examples, default and $comment, and trims descriptions to their first sentence', () => {
    expect(
      compactToolSchema({
        type: 'object',
        title: 'Search input',
        $comment: 'generated',
        description: 'Search things. Slow on big repos.',
        properties: { query: { type: 'string', description: 'What to find, e.g. a symbol. Case-sensitive.', examples: ['main'], default: '' } },
        required: ['query'],
      }),
    ).toEqual({
      type: 'object',
      description: 'Search things',
      properties: { query: { type: 'string', description: 'What to find, e.g. a symbol' } },
      required: ['query'],
    });
  });

  it('keeps properties named like annotation keywords: they are parameters', () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string', title: 'Title', description: 'Issue title. Short.' },
        default: { type: 'boolean', default: false },
        description: { type: 'string', description: 'Body text of the issue. Markdown.' },
        examples: { type: 'array', items: { type: 'string' } },
        $comment: { type: 'string' },
      },
      required: ['title', 'description'],
    };
    expect(compactToolSchema(schema)).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', description: 'Issue title' },
        default: { type: 'boolean' },
        description: { type: 'string', description: 'Body text of the issue' },
        examples: { type: 'array', items: { type: 'string' } },
        $comment: { type: 'string' },
      },
      required: ['title', 'description'],
    });
  });

  it('leaves data alone: enum, const, default and unknown keywords that hold objects with annotation names', () => {
    const schema = {
      type: 'object',
      properties: {
        shape: { enum: [{ title: 'a', default: 1 }, 'plain'], const: { title: 'a', default: 1 } },
      },
      'x-vendor': { title: 'kept', description: 'Vendor text. Kept whole.' },
    };
    expect(compactToolSchema(schema)).toEqual(schema);
  });

  it.each([
    ['properties', (inner: object) => ({ properties: { a: inner } }), (inner: object) => ({ properties: { a: inner } })],
    ['patternProperties', (inner: object) => ({ patternProperties: { '^x': inner } }), (inner: object) => ({ patternProperties: { '^x': inner } })],
    ['additionalProperties', (inner: object) => ({ additionalProperties: inner }), (inner: object) => ({ additionalProperties: inner })],
    ['items (object)', (inner: object) => ({ items: inner }), (inner: object) => ({ items: inner })],
    ['items (draft-07 tuple)', (inner: object) => ({ items: [inner, inner] }), (inner: object) => ({ items: [inner, inner] })],
    ['prefixItems', (inner: object) => ({ prefixItems: [inner] }), (inner: object) => ({ prefixItems: [inner] })],
    ['additionalItems', (inner: object) => ({ additionalItems: inner }), (inner: object) => ({ additionalItems: inner })],
    ['anyOf', (inner: object) => ({ anyOf: [inner, true] }), (inner: object) => ({ anyOf: [inner, true] })],
    ['oneOf', (inner: object) => ({ oneOf: [inner] }), (inner: object) => ({ oneOf: [inner] })],
    ['allOf', (inner: object) => ({ allOf: [inner] }), (inner: object) => ({ allOf: [inner] })],
    ['not', (inner: object) => ({ not: inner }), (inner: object) => ({ not: inner })],
    // Built from entries: a literal object with a `then` key looks like a promise to linters.
    ['if/then/else', (inner: object) => conditional(inner), (inner: object) => conditional(inner)],
    // Referenced, or the unused definition would go (dropUnusedDefinitions).
    ['$defs', (inner: object) => ({ $ref: '#/$defs/a', $defs: { a: inner } }), (inner: object) => ({ $ref: '#/$defs/a', $defs: { a: inner } })],
    ['definitions', (inner: object) => ({ $ref: '#/definitions/a', definitions: { a: inner } }), (inner: object) => ({ $ref: '#/definitions/a', definitions: { a: inner } })],
    ['dependentSchemas', (inner: object) => ({ dependentSchemas: { a: inner } }), (inner: object) => ({ dependentSchemas: { a: inner } })],
    ['dependencies', (inner: object) => ({ dependencies: { a: inner, b: ['a'] } }), (inner: object) => ({ dependencies: { a: inner, b: ['a'] } })],
    ['contains', (inner: object) => ({ contains: inner }), (inner: object) => ({ contains: inner })],
    ['propertyNames', (inner: object) => ({ propertyNames: inner }), (inner: object) => ({ propertyNames: inner })],
    ['unevaluatedProperties', (inner: object) => ({ unevaluatedProperties: inner }), (inner: object) => ({ unevaluatedProperties: inner })],
  ])('recurses through %s', (_keyword, wrap, expected) => {
    const inner = { type: 'string', minLength: 1, ...note };
    const deeper = { type: 'object', ...note, properties: { b: inner } };
    expect(compactToolSchema(wrap(deeper))).toEqual(expected({ type: 'object', ...compactNote, properties: { b: { type: 'string', minLength: 1, ...compactNote } } }));
  });

  it('keeps deprecated, readOnly and writeOnly unless asked', () => {
    const schema = { type: 'object', properties: { old: { type: 'string', deprecated: true, readOnly: true, writeOnly: false } } };
    expect(compactToolSchema(schema)).toEqual(schema);
    expect(compactToolSchema(schema, { dropUsageAnnotations: true })).toEqual({ type: 'object', properties: { old: { type: 'string' } } });
  });

  it('keeps the keywords the caller names', () => {
    expect(compactToolSchema({ type: 'integer', default: 30, title: 'Size' }, { keepKeywords: ['default'] })).toEqual({ type: 'integer', default: 30 });
  });

  it('keeps an annotation a $ref points into', () => {
    const schema = { $defs: { sample: { type: 'string', examples: [{ type: 'number' }] } }, properties: { a: { $ref: '#/$defs/sample/examples/0' } } };
    expect(compactToolSchema(schema)).toEqual(schema);
  });
});

describe('compactToolSchema: descriptions', () => {
  it('drops descriptions and notes that restate the schema', () => {
    const schema = {
      type: 'object',
      properties: {
        issue_number: { type: 'number', description: 'The issue number' },
        per_page: { type: 'number', minimum: 1, maximum: 100, description: 'Results per page (min 1, max 100)' },
        branch: { type: 'string', description: 'Optional: Branch to read from. Defaults to main.' },
        owner: { type: 'string', description: 'Required: account that owns the repository.' },
      },
      required: ['issue_number', 'owner'],
    };
    expect(compactToolSchema(schema)).toEqual({
      type: 'object',
      properties: {
        issue_number: { type: 'number' },
        per_page: { type: 'number', minimum: 1, maximum: 100, description: 'Results per page' },
        branch: { type: 'string', description: 'Branch to read from' },
        owner: { type: 'string', description: 'account that owns the repository' },
      },
      required: ['issue_number', 'owner'],
    });
    expect(compactToolSchema(schema, { dropRedundantDescriptions: false }).properties.issue_number).toEqual({ type: 'number', description: 'issue number' });
  });

  it('cleans white space and emphasis, or keeps the text as written when asked', () => {
    const schema = { type: 'string', description: '  Filters for **workflow**\n   runs only  ' };
    expect(compactToolSchema(schema)).toEqual({ type: 'string', description: 'Filters for workflow runs only' });
    expect(compactToolSchema(schema, { cleanDescriptions: false, trimDescriptions: false })).toEqual({
      type: 'string',
      description: 'Filters for **workflow**\n   runs only',
    });
  });

  it('keeps the later sentences that tell the model what it must or must not do', () => {
    const schema = {
      type: 'object',
      properties: {
        organization_id: { type: 'string', description: 'The organization ID. Always ask the user.' },
        file_path: { type: 'string', description: 'Path of the file to write. Relative to the project root. Do not provide an absolute path.' },
        old_string: { type: 'string', description: 'Text to replace. Must appear exactly once.' },
        region: { type: 'string', description: 'Region of the project. Usually not needed and should be omitted.' },
      },
    };
    expect(compactToolSchema(schema).properties).toEqual({
      organization_id: { type: 'string', description: 'organization ID. Always ask the user.' },
      file_path: { type: 'string', description: 'Path of the file to write. Do not provide an absolute path.' },
      old_string: { type: 'string', description: 'Text to replace. Must appear exactly once.' },
      region: { type: 'string', description: 'Region of the project' },
    });
    // Without them the ID's description restates its name and goes whole.
    expect(compactToolSchema(schema, { keepDirectives: false }).properties.organization_id).toEqual({ type: 'string' });
    expect(compactToolSchema(schema, { keepDirectives: false }).properties.old_string).toEqual({ type: 'string', description: 'Text to replace' });
  });

  it('drops a numeric format that says no more than the type and minimum, and keeps one that bounds the value', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'integer', format: 'int64' },
        price: { type: ['number', 'null'], format: 'double' },
        since: { type: 'integer', format: 'uint64', minimum: 0 },
        count: { type: 'integer', format: 'uint32' },
        level: { type: 'integer', format: 'uint8', minimum: 0 },
        page: { type: 'integer', format: 'int32' },
        big: { type: 'string', format: 'int64' },
      },
    };
    expect(compactToolSchema(schema).properties).toEqual({
      id: { type: 'integer' },
      price: { type: ['number', 'null'] },
      since: { type: 'integer', minimum: 0 },
      // Without a minimum, `uint32` is the only thing saying the value is not negative.
      count: { type: 'integer', format: 'uint32' },
      level: { type: 'integer', format: 'uint8', minimum: 0 },
      page: { type: 'integer', format: 'int32' },
      big: { type: 'string', format: 'int64' },
    });
    expect(compactToolSchema(schema, { dropWidthFormats: false })).toEqual(schema);
  });

  it('drops a subschema that accepts everything, unless unevaluatedProperties could see what it evaluated', () => {
    const record = { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} };
    const schema = {
      type: 'object',
      properties: { headers: record, extra: { type: 'object', additionalProperties: true }, closed: { type: 'object', additionalProperties: false } },
      additionalProperties: { type: 'string' },
    };
    expect(compactToolSchema(schema)).toEqual({
      type: 'object',
      properties: { headers: { type: 'object' }, extra: { type: 'object' }, closed: { type: 'object', additionalProperties: false } },
      additionalProperties: { type: 'string' },
    });
    expect(compactToolSchema(schema, { dropVacuousSubschemas: false })).toEqual(schema);
    // Here `additionalProperties: true` marks every property evaluated, so the outer unevaluatedProperties
    // lets `x` through; without it `x` would be rejected. The rule stands down.
    const evaluated = { $schema: 'https://json-schema.org/draft/2020-12/schema', allOf: [{ additionalProperties: true }], unevaluatedProperties: false };
    expect(compactToolSchema(evaluated)).toEqual(evaluated);
    const { compile } = ajvCompiler();
    expect(compile(compactToolSchema(evaluated), 'draft-2020-12')({ x: 1 })).toBe(compile(evaluated, 'draft-2020-12')({ x: 1 }));
  });

  it('drops every description only when asked', () => {
    const schema = { type: 'object', description: 'Root.', properties: { a: { type: 'string', description: 'A thing to do.' } } };
    expect(compactToolSchema(schema, { dropDescriptions: true })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('leaves a non-string description as it is', () => {
    expect(compactToolSchema({ type: 'string', description: 42 })).toEqual({ type: 'string', description: 42 });
  });
});

describe('compactToolSchema: conditions a schema cannot state', () => {
  it('keeps the sentences that say which actions of a many-action tool need a parameter', () => {
    // One tool, several operations behind an `action` enum: the schema cannot say which parameters each needs.
    const schema = {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['list', 'get', 'delete'], description: 'Operation to run. Each one reads or deletes records.' },
        record_id: { type: 'string', description: 'ID of the record. Take it from an earlier list call. Required for get and delete.' },
        limit: { type: 'integer', description: 'Most records to return. Defaults to 20. Only used when action is list.' },
      },
      required: ['action'],
    };
    expect(compactToolSchema(schema).properties).toEqual({
      action: { type: 'string', enum: ['list', 'get', 'delete'], description: 'Operation to run' },
      record_id: { type: 'string', description: 'ID of the record. Required for get and delete.' },
      limit: { type: 'integer', description: 'Most records to return. Only used when action is list.' },
    });
    // Without the condition, "ID of the record" only restates `record_id` and goes whole.
    expect(compactToolSchema(schema, { keepDirectives: false }).properties.record_id).toEqual({ type: 'string' });
  });
});

describe('compactToolSchema: a leading verb that only labels', () => {
  it('drops a leading "Specifies the" / "Set the", so a description that was only that and the name goes', () => {
    const schema = {
      type: 'object',
      properties: {
        subscription: { type: 'string', description: 'Specifies the Azure subscription to use.' },
        width: { type: 'number', description: 'Set the width' },
        archived: { type: 'boolean', description: 'Set to true to include archived items' },
      },
    };
    expect(compactToolSchema(schema).properties).toEqual({
      subscription: { type: 'string', description: 'Azure subscription to use' },
      width: { type: 'number' },
      archived: { type: 'boolean', description: 'Set to true to include archived items' },
    });
    expect(compactToolSchema(schema, { terseDescriptions: false }).properties.subscription).toEqual({ type: 'string', description: 'Specifies the Azure subscription to use.' });
  });
});

describe('compactToolSchema: the Optional-union rule, once is enough', () => {
  // Two counterexamples the seeded property test found: compacting again changed the result.
  it('collapses a nullable union whose outer node and branch both carried an annotation the walk drops', () => {
    // JSON text: an object literal with a `then` key reads as a thenable to the linter.
    const schema = JSON.parse('{"type":"object","properties":{"title":{"if":{"type":"string"},"then":{"anyOf":[{"type":"null"},{"type":"string","examples":[]}],"examples":[]}}}}');
    const once = compactToolSchema(schema);
    expect(once).toEqual(JSON.parse('{"type":"object","properties":{"title":{"if":{"type":"string"},"then":{"type":["string","null"]}}}}'));
    expect(compactToolSchema(once)).toEqual(once);
  });

  it('collapses a nullable union whose own description compacts to nothing, in one pass', () => {
    // Found by the generated-schema property (seed 573687314): the blank outer description blocked the
    // collapse on the first pass, was dropped by it, and let the second pass collapse.
    const schema = { anyOf: [{ type: 'null' }, { type: 'object', properties: {}, description: 'Path' }], description: '\n' };
    const once = compactToolSchema(schema);
    expect(once).toEqual({ type: ['object', 'null'], properties: {}, description: 'Path' });
    expect(compactToolSchema(once)).toEqual(once);
  });

  it("collapses zod's nullable-optional union, which carries the same description on the union and the branch", () => {
    const regionUrl = {
      anyOf: [{ type: 'string', description: 'The Sentry host to query. Leave empty for sentry.io.' }, { type: 'null' }],
      description: 'The Sentry host to query. Leave empty for sentry.io.',
      default: null,
    };
    const once = compactToolSchema({ type: 'object', properties: { regionUrl } });
    expect(once).toEqual({ type: 'object', properties: { regionUrl: { type: ['string', 'null'], description: 'Sentry host to query' } } });
    expect(compactToolSchema(once)).toEqual(once);
    // A requiredness note the schema already states does not make the texts differ.
    const noted = { ...regionUrl, anyOf: [{ type: 'string', description: 'Optional: The Sentry host to query.' }, { type: 'null' }] };
    expect(compactToolSchema({ type: 'object', properties: { regionUrl: noted } })).toEqual(once);
    // Texts that differ both stay, and so the union does.
    const differing = { ...regionUrl, description: 'Where the organization lives.' };
    expect(compactToolSchema({ type: 'object', properties: { regionUrl: differing } })).toEqual({
      type: 'object',
      properties: { regionUrl: { anyOf: [{ type: 'string', description: 'Sentry host to query' }, { type: 'null' }], description: 'Where the organization lives' } },
    });
  });

  it("compacts a description lifted from the branch as the property's own", () => {
    const schema = { type: 'object', properties: { title: { anyOf: [{ type: 'string', description: 'Optional: Path' }, { type: 'null' }] } }, required: [] };
    const once = compactToolSchema(schema);
    // `required: []` requires nothing and goes too (dropEmptyRequired).
    expect(once).toEqual({ type: 'object', properties: { title: { type: ['string', 'null'], description: 'Path' } } });
    expect(compactToolSchema(once)).toEqual(once);
  });
});

describe('compactToolSchema: $schema', () => {
  const draft07 = 'http://json-schema.org/draft-07/schema#';

  it('drops a $schema line that changes no verdict', () => {
    expect(compactToolSchema({ $schema: draft07, type: 'object', properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(compactToolSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' })).toEqual({ type: 'string' });
  });

  it('keeps it where draft-07 and 2020-12 would disagree, where it is unknown, or when asked', () => {
    for (const schema of [
      { $schema: draft07, type: 'array', items: [{ type: 'string' }] },
      { $schema: draft07, $defs: { a: { type: 'string' } }, properties: { b: { $ref: '#/$defs/a', maxLength: 3 } } },
      { $schema: draft07, dependencies: { a: ['b'] } },
      { $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' },
      { $schema: 'https://example.com/custom-meta', type: 'string' },
    ]) {
      expect(compactToolSchema(schema).$schema).toBe(schema.$schema);
    }
    expect(compactToolSchema({ $schema: draft07, type: 'string' }, { dropDialect: false })).toEqual({ $schema: draft07, type: 'string' });
  });
});

describe('compactToolSchema: the input', () => {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    title: 'x',
    properties: { a: { type: 'array', items: { enum: ['x', 'y'], description: 'One. Two.' } } },
  };

  it('never mutates it, and shares no object with it', () => {
    const frozen = deepFreeze(structuredClone(schema));
    const before = JSON.stringify(frozen);
    const compacted = compactToolSchema(frozen);
    expect(JSON.stringify(frozen)).toBe(before);
    compacted.properties.a.items.enum.push('z');
    expect(frozen.properties.a.items.enum).toEqual(['x', 'y']);
  });

  it('keeps a property named __proto__ as data', () => {
    const parsed = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","title":"x"}}}');
    const compacted = compactToolSchema(parsed);
    expect(Object.hasOwn(compacted.properties, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(compacted.properties, '__proto__')!.value).toEqual({ type: 'string' });
  });
});

describe('compactToolSchema: bad input', () => {
  it('passes an invalid schema through unchanged, with a warning that says where', () => {
    const warnings: CompactionWarning[] = [];
    const schema = { type: 'object', title: 't', properties: { a: { $ref: '#/$defs/gone' } } };
    expect(compactToolSchema(schema, { onWarning: (warning) => warnings.push(warning) })).toBe(schema);
    expect(warnings).toEqual([
      {
        path: '/properties/a/$ref',
        problem: '"#/$defs/gone" points nowhere: the root has no "$defs"',
        action: 'passed-through',
        message: '[ctxkit:schema] schema at /properties/a/$ref: "#/$defs/gone" points nowhere: the root has no "$defs"; passed through unchanged',
      },
    ]);
  });

  it('warns on the console when no handler is given', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(compactToolSchema('not a schema')).toBe('not a schema');
      expect(warn).toHaveBeenCalledWith('[ctxkit:schema] schema: a schema must be an object or a boolean, got the string "not a schema"; passed through unchanged');
    } finally {
      warn.mockRestore();
    }
  });

  it('throws a typed error when asked to', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.not = cyclic;
    expect(() => compactToolSchema(cyclic, { onInvalid: 'throw' })).toThrow(
      expect.objectContaining({
        code: 'SCHEMA_ERROR',
        message: '[ctxkit:schema] schema cannot be compacted: /not: refers back to an object that contains it (a cycle); a schema must be a JSON tree',
      }),
    );
  });

  it('compacts past an external $ref, with a warning', () => {
    const result = compactSchemaChecked({ title: 'x', $ref: 'https://example.com/s.json' });
    expect(result.schema).toEqual({ $ref: 'https://example.com/s.json' });
    expect(result.warnings.map((warning) => warning.action)).toEqual(['compacted']);
  });

  it('does not overflow the stack on a very deep schema', () => {
    let deep: unknown = { type: 'string' };
    for (let level = 0; level < 50_000; level++) deep = { items: deep };
    expect(() => compactToolSchema(deep, quiet)).not.toThrow();
    expect(compactToolSchema(deep, quiet)).toBe(deep);
  });
});

// Schemas with annotations everywhere, properties named like keywords, and descriptions full of traps.
const sentence = fc
  .array(fc.constantFrom('Path', 'to', 'the', 'file', 'e.g.', 'src/app.ts.', 'Use', '`a. B`', 'v1.2.', '"Quoted. Text"', 'Optional:', '(min 1)', '**bold**', 'etc.', 'Next.', '\n'), {
    minLength: 1,
    maxLength: 12,
  })
  .map((words) => words.join(' '));
const annotations = fc.record(
  { title: fc.string(), description: sentence, default: fc.jsonValue(), examples: fc.array(fc.jsonValue(), { maxLength: 2 }), $comment: fc.string() },
  { requiredKeys: [] },
);
const propertyName = fc.constantFrom('title', 'description', 'default', 'examples', 'type', 'a', 'b', '$ref');
const { schema: schemaArbitrary } = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom('string', 'number', 'integer', 'boolean', 'null'), annotations).map(([type, extra]) => ({ type, ...extra })),
    fc.tuple(fc.array(fc.constantFrom('a', 'b', 1, null), { minLength: 1, maxLength: 3 }), annotations).map(([values, extra]) => ({ enum: values, ...extra })),
    fc
      .tuple(fc.dictionary(propertyName, tie('schema'), { maxKeys: 4 }), fc.array(propertyName, { maxLength: 3 }), fc.boolean(), annotations)
      .map(([properties, required, closed, extra]) => ({ type: 'object', properties, required: [...new Set(required)], ...(closed ? { additionalProperties: false } : {}), ...extra })),
    fc.tuple(tie('schema'), fc.nat(3), annotations).map(([items, minItems, extra]) => ({ type: 'array', items, minItems, ...extra })),
    fc.tuple(fc.array(tie('schema'), { minLength: 1, maxLength: 3 }), fc.constantFrom('anyOf', 'oneOf', 'allOf'), annotations).map(([branches, keyword, extra]) => ({
      [keyword]: branches,
      ...extra,
    })),
    fc.tuple(tie('schema'), tie('schema'), annotations).map(([condition, then, extra]) => ({ if: condition, then, ...extra })),
  ),
}));

describe('compactToolSchema: properties over generated schemas', () => {
  const { compile } = ajvCompiler();

  it('changes no verdict, never mutates, never grows, and is idempotent', () => {
    fc.assert(
      fc.property(schemaArbitrary, fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }), (schema, values) => {
        const before = JSON.stringify(schema);
        const compacted = compactToolSchema(schema, quiet);
        expect(JSON.stringify(schema)).toBe(before);
        expect(JSON.stringify(compacted).length).toBeLessThanOrEqual(before.length);
        expect(compactToolSchema(compacted, quiet)).toEqual(compacted);
        const original = compile(schema, 'draft-2020-12');
        const smaller = compile(compacted, 'draft-2020-12');
        const { valid, invalid } = generateInstances(schema, { limit: 60 });
        for (const instance of [...valid, ...invalid].map((entry) => entry.instance).concat(values)) {
          expect(smaller(instance), JSON.stringify(instance)).toBe(original(instance));
        }
      }),
      { numRuns: 150 },
    );
  });
});
