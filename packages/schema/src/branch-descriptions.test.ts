import { describe, expect, it } from 'vitest';
import { ajvCompiler } from '../test/ajv-compiler.ts';
import { dedupeBranchDescriptions } from './branch-descriptions.ts';
import { compactToolSchema } from './compact-tool-schema.ts';
import { generateInstances } from './bench/generate-instances.ts';
import { checkValidationAgreement } from './bench/validation-agreement.ts';

// A request-body union as OpenAPI generators (Stainless) and zod discriminated unions write it: every
// branch repeats the shared fields with the same descriptions.
const consumer = {
  type: 'object',
  anyOf: [
    {
      type: 'object',
      properties: {
        queue_id: { type: 'string', description: 'A Resource identifier.' },
        script_name: { type: 'string', description: 'Name of a Worker' },
        type: { type: 'string', enum: ['worker'] },
      },
    },
    {
      type: 'object',
      properties: {
        queue_id: { type: 'string', description: 'A Resource identifier.' },
        visibility_timeout_ms: { type: 'number', description: 'Lease length in milliseconds.' },
        type: { type: 'string', enum: ['http_pull'] },
      },
    },
  ],
};

describe('dedupeBranchDescriptions', () => {
  it('keeps a shared field described in the first branch only', () => {
    const [first, second] = dedupeBranchDescriptions(consumer.anyOf) as typeof consumer.anyOf;
    expect(first).toBe(consumer.anyOf[0]);
    expect(second!.properties).toEqual({
      queue_id: { type: 'string' },
      visibility_timeout_ms: { type: 'number', description: 'Lease length in milliseconds.' },
      type: { type: 'string', enum: ['http_pull'] },
    });
  });

  it('keeps a description that differs, or that a $ref reads through its branch', () => {
    const branches = [
      { properties: { etag: { type: 'string', description: 'Required for init. An md5 hash.' } } },
      { properties: { etag: { type: 'string', description: 'An md5 hash.' } } },
      { properties: { etag: { type: 'string', description: 'An md5 hash.' } } },
    ];
    expect(dedupeBranchDescriptions(branches)).toEqual(branches);
    expect(dedupeBranchDescriptions([consumer.anyOf[0], consumer.anyOf[1]], (path) => path === '/1')).toEqual(consumer.anyOf);
  });
});

describe('compactToolSchema: a union describes each field once', () => {
  it('drops the repeated description, and validates exactly as before', () => {
    const compacted = compactToolSchema(consumer);
    expect(compacted.anyOf[0]!.properties.queue_id).toEqual({ type: 'string', description: 'Resource identifier' });
    expect(compacted.anyOf[1]!.properties.queue_id).toEqual({ type: 'string' });
    const instances = generateInstances(consumer);
    const report = checkValidationAgreement({ original: consumer, compacted, compile: ajvCompiler().compile, instances });
    expect(report.disagreements).toEqual([]);
    expect(compactToolSchema(compacted)).toEqual(compacted);
  });

  it('compares the descriptions as compacted: a copy that only differs in a second sentence goes too', () => {
    const schema = {
      oneOf: [
        { properties: { id: { type: 'string', description: 'Zone identifier. Find it in the dashboard.' } } },
        { properties: { id: { type: 'string', description: 'Zone identifier. See the API docs.' } } },
      ],
    };
    expect(compactToolSchema(schema).oneOf[1]!.properties.id).toEqual({ type: 'string' });
  });

  it('keeps every copy when a $ref points into a later branch, or when the option is off', () => {
    const referenced = { ...consumer, properties: { again: { $ref: '#/anyOf/1/properties/queue_id' } } };
    expect(compactToolSchema(referenced).anyOf[1]!.properties.queue_id).toEqual({ type: 'string', description: 'Resource identifier' });
    expect(compactToolSchema(consumer, { dedupeBranchDescriptions: false }).anyOf[1]!.properties.queue_id).toEqual({ type: 'string', description: 'Resource identifier' });
  });
});
