import { CtxkitError } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { ajvCompiler } from '../../test/ajv-compiler.ts';
import { compactTools } from '../compact-tools.ts';
import { checkToolsAgreement, checkValidationAgreement } from './validation-agreement.ts';

const { compile } = ajvCompiler();
const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { title: { type: 'string', minLength: 1 }, state: { enum: ['open', 'closed'], default: 'open' } },
  required: ['title'],
  additionalProperties: false,
};

describe('checkValidationAgreement', () => {
  it('finds full agreement for a faithful compaction, compiling a dropped-$schema copy under both drafts', () => {
    const { $schema: _dialect, ...compacted } = schema;
    const report = checkValidationAgreement({ original: schema, compacted, compile });
    expect(report.originalDialect).toBe('draft-07');
    expect(report.compactedDialects).toEqual(['draft-07', 'draft-2020-12']);
    expect(report.acceptedByOriginal).toBeGreaterThan(0);
    expect(report.rejectedByOriginal).toBeGreaterThan(report.acceptedByOriginal);
    expect(report.checked).toBe(2 * (report.acceptedByOriginal + report.rejectedByOriginal));
    expect(report.agreed).toBe(report.checked);
    expect(report.disagreements).toEqual([]);
  });

  it('catches a compaction that dropped a property named like an annotation', () => {
    const broken = { ...schema, properties: { state: schema.properties.state } };
    const report = checkValidationAgreement({ original: schema, compacted: broken, compile });
    expect(report.agreed).toBeLessThan(report.checked);
    // Every valid instance now fails: title became an unexpected property.
    expect(report.disagreements).toHaveLength(report.acceptedByOriginal);
    expect(report.disagreements[0]).toMatchObject({ note: 'minimal', instance: { title: 'text' }, original: true, compacted: false });
  });

  it('catches a changed bound or enum', () => {
    const looser = { ...schema, properties: { ...schema.properties, state: { enum: ['open', 'closed', '__not_in_enum__'] } } };
    const notes = checkValidationAgreement({ original: schema, compacted: looser, compile }).disagreements.map((entry) => entry.note);
    expect(new Set(notes)).toEqual(new Set(['/state not in enum']));
  });

  it('reports a schema the validator cannot compile, and why, instead of throwing', () => {
    const report = checkValidationAgreement({ original: { type: 'nonsense' }, compacted: { type: 'nonsense' }, compile });
    expect(report.checked).toBe(0);
    expect(report.failure).toMatchObject({ schema: 'original', dialect: 'draft-2020-12' });
    expect(report.failure!.reason).toMatch(/type/);
  });
});

describe('checkToolsAgreement', () => {
  it('checks every tool with a schema and sums the verdicts', () => {
    const tools = [
      { name: 'a', inputSchema: schema },
      { type: 'function', function: { name: 'b', parameters: { type: 'object', properties: { n: { type: 'integer', maximum: 3, title: 'N' } } } } },
      { type: 'web_search' },
    ];
    const report = checkToolsAgreement({ tools, compacted: compactTools(tools), compile });
    expect(report.tools.map((tool) => tool.name)).toEqual(['a', 'b']);
    expect(report.skipped).toBe(1);
    expect(report.checked).toBeGreaterThan(10);
    expect(report.agreement).toBe(1);
  });

  it("judges an MCP tool's outputSchema as an entry of its own, and catches a compaction that broke it", () => {
    const tools = [{ name: 'a', inputSchema: { type: 'object' }, outputSchema: schema }];
    const report = checkToolsAgreement({ tools, compacted: compactTools(tools), compile });
    expect(report.tools.map((tool) => [tool.name, tool.schema])).toEqual([
      ['a', 'input'],
      ['a', 'output'],
    ]);
    expect(report.agreement).toBe(1);
    const broken = [{ ...tools[0], outputSchema: { ...schema, required: [] } }];
    const failed = checkToolsAgreement({ tools, compacted: broken, compile });
    expect(failed.tools.map((tool) => [tool.schema, tool.disagreements.length > 0])).toEqual([
      ['input', false],
      ['output', true],
    ]);
    expect(failed.agreement).toBeLessThan(1);
  });

  it('refuses lists of different lengths', () => {
    expect(() => checkToolsAgreement({ tools: [{}], compacted: [], compile })).toThrow(CtxkitError);
  });
});
