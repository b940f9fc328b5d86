import { describe, expect, it } from 'vitest';
import { declaredDialect, dialectDifference } from './schema-dialect.ts';

describe('declaredDialect', () => {
  it('reads the root $schema', () => {
    expect(declaredDialect({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('draft-07');
    expect(declaredDialect({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('draft-2020-12');
    expect(declaredDialect({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe('draft-2019-09');
    expect(declaredDialect({ $schema: 'https://example.com/meta' })).toBeUndefined();
    expect(declaredDialect({ type: 'string' })).toBeUndefined();
  });
});

describe('dialectDifference', () => {
  it('is undefined for a schema both drafts read alike', () => {
    expect(dialectDifference({ type: 'object', properties: { a: { $ref: '#/definitions/a', description: 'x' } }, definitions: { a: { type: 'string' } } })).toBeUndefined();
  });

  it.each([
    [{ type: 'array', items: [{ type: 'string' }] }, 'the root uses a tuple items array'],
    [{ properties: { a: { $ref: '#/$defs/a', minLength: 1 } } }, '/properties/a has $ref beside minLength'],
    [{ properties: { a: { prefixItems: [] } } }, '/properties/a uses prefixItems'],
    [{ dependencies: { a: ['b'] } }, 'the root uses dependencies'],
    [{ minimum: 0, exclusiveMinimum: true }, 'the root uses a boolean exclusive bound'],
    [{ $defs: { a: { $id: 'https://x/a' } } }, '/$defs/a has an $id'],
    [{ anyOf: [{ $schema: 'http://json-schema.org/draft-04/schema#' }] }, '/anyOf/0 declares its own $schema'],
  ])('names what differs in %j', (schema, reason) => {
    expect(dialectDifference(schema)).toBe(reason);
  });
});
