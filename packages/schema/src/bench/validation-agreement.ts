import { CtxkitError } from '@ctxkit/core';
import { type GeneratedInstances, generateInstances } from './generate-instances.ts';
import { declaredDialect, type SchemaDialect } from '../schema-dialect.ts';
import { isRecord } from '../schema-keywords.ts';
import { toolParts, toolShape } from '../tool-shapes.ts';

/**
 * Compiles a schema under a draft into a yes/no validator: the caller's validator (ajv, for example),
 * passed in so `@ctxkit/schema` depends on none. Throw when the schema cannot be compiled.
 * @example
 * ```ts
 * import { Ajv } from 'ajv'; // named: the default import is the module object under moduleResolution NodeNext
 * import { Ajv2020 } from 'ajv/dist/2020.js';
 * const compile: CompileSchema = (schema, dialect) =>
 *   (dialect === 'draft-2020-12' ? new Ajv2020({ strict: false }) : new Ajv({ strict: false })).compile(schema as object);
 * ```
 */
export type CompileSchema = (schema: unknown, dialect: SchemaDialect) => (instance: unknown) => boolean;

/** An instance the two schemas judged differently. */
export interface Disagreement {
  instance: unknown;
  note: string;
  /** The draft the compacted schema was compiled under. */
  dialect: SchemaDialect;
  original: boolean;
  compacted: boolean;
}

/** A schema the validator could not compile, and why. */
export interface CompileFailure {
  schema: 'original' | 'compacted';
  dialect: SchemaDialect;
  reason: string;
}

/** How the original and compacted schemas judged the same instances. */
export interface ValidationAgreement {
  /** Verdicts compared: instances × drafts the compacted schema was compiled under. */
  checked: number;
  agreed: number;
  disagreements: Disagreement[];
  /** Instances the original accepts (built to be valid, and a validator agreed). */
  acceptedByOriginal: number;
  /** Instances the original rejects. */
  rejectedByOriginal: number;
  /** The draft the original was compiled under (declared, or the default). */
  originalDialect: SchemaDialect;
  /** The drafts the compacted schema was compiled under: both, when compaction dropped `$schema`. */
  compactedDialects: SchemaDialect[];
  /** Set when a schema could not be compiled; then nothing was compared. */
  failure?: CompileFailure;
}

/** Options for {@link checkValidationAgreement}. */
export interface ValidationAgreementOptions {
  original: unknown;
  compacted: unknown;
  compile: CompileSchema;
  /** The draft of a schema that declares none (MCP's default). @default 'draft-2020-12' */
  defaultDialect?: SchemaDialect;
  /** The instances to judge. @default generateInstances(original) */
  instances?: GeneratedInstances;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Compiles the original and the compacted schema and checks that both give the same verdict on every
 * instance (by default, instances generated from the original, valid and invalid). The original is
 * compiled under the draft it declares; the compacted one under the same draft, or under both
 * draft-07 and 2020-12 when compaction dropped its `$schema` (a reader may then assume either).
 * @example
 * ```ts
 * const report = checkValidationAgreement({ original, compacted: compactToolSchema(original), compile });
 * report.agreed === report.checked; // true: compaction changed no verdict
 * ```
 */
export function checkValidationAgreement(options: ValidationAgreementOptions): ValidationAgreement {
  const fallback = options.defaultDialect ?? 'draft-2020-12';
  const declared = declaredDialect(options.original);
  const originalDialect = declared ?? fallback;
  const compactedDeclared = declaredDialect(options.compacted);
  const compactedDialects: SchemaDialect[] = compactedDeclared !== undefined ? [compactedDeclared] : declared !== undefined ? ['draft-07', 'draft-2020-12'] : [fallback];
  const report: ValidationAgreement = {
    checked: 0,
    agreed: 0,
    disagreements: [],
    acceptedByOriginal: 0,
    rejectedByOriginal: 0,
    originalDialect,
    compactedDialects,
  };
  let original: (instance: unknown) => boolean;
  try {
    original = options.compile(options.original, originalDialect);
  } catch (error) {
    report.failure = { schema: 'original', dialect: originalDialect, reason: reasonOf(error) };
    return report;
  }
  const compacted: [SchemaDialect, (instance: unknown) => boolean][] = [];
  for (const dialect of compactedDialects) {
    try {
      compacted.push([dialect, options.compile(options.compacted, dialect)]);
    } catch (error) {
      report.failure = { schema: 'compacted', dialect, reason: reasonOf(error) };
      return report;
    }
  }
  const instances = options.instances ?? generateInstances(options.original);
  for (const { instance, note } of [...instances.valid, ...instances.invalid]) {
    const verdict = original(instance);
    if (verdict) report.acceptedByOriginal++;
    else report.rejectedByOriginal++;
    for (const [dialect, validate] of compacted) {
      report.checked++;
      const other = validate(instance);
      if (other === verdict) report.agreed++;
      else report.disagreements.push({ instance, note, dialect, original: verdict, compacted: other });
    }
  }
  return report;
}

/** {@link ValidationAgreement} for one tool of a list. */
export interface ToolAgreement extends ValidationAgreement {
  index: number;
  name: string;
  /** Which of the tool's schemas: its input schema, or an MCP tool's `outputSchema` (an entry of its own). */
  schema: 'input' | 'output';
}

/** How a list of tools and its compacted form judged the same instances, tool by tool and in all. */
export interface ToolsAgreement {
  tools: ToolAgreement[];
  checked: number;
  agreed: number;
  /** agreed ÷ checked; 1 when nothing was checked. */
  agreement: number;
  /** Tools whose original or compacted schema could not be compiled (so not compared). */
  failures: ToolAgreement[];
  /** Tools without an input schema (hosted tools, OpenAI functions without `parameters`). */
  skipped: number;
}

/**
 * {@link checkValidationAgreement} over a list of tools and its compacted form (the same tools, in the
 * same order, as `compactTools` returns them).
 * @throws CtxkitError INVALID_ARGUMENT when the two lists differ in length
 */
export function checkToolsAgreement(options: { tools: readonly unknown[]; compacted: readonly unknown[]; compile: CompileSchema; defaultDialect?: SchemaDialect }): ToolsAgreement {
  if (options.tools.length !== options.compacted.length) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'schema',
      message: `checkToolsAgreement needs the compacted list of the same tools: got ${options.tools.length} tools and ${options.compacted.length} compacted`,
    });
  }
  const result: ToolsAgreement = { tools: [], checked: 0, agreed: 0, agreement: 1, failures: [], skipped: 0 };
  options.tools.forEach((tool, index) => {
    const shape = toolShape(tool);
    const compactedTool = options.compacted[index];
    const compactedShape = toolShape(compactedTool);
    if (shape === undefined || shape === 'provider-defined' || !isRecord(tool) || compactedShape === undefined || !isRecord(compactedTool)) {
      result.skipped++;
      return;
    }
    const parts = toolParts(tool, shape);
    if (!parts.hasSchema) {
      result.skipped++;
      return;
    }
    const name = typeof parts.name === 'string' ? parts.name : `#${index}`;
    const record = (schema: ToolAgreement['schema'], agreement: ValidationAgreement) => {
      const entry: ToolAgreement = { index, name, schema, ...agreement };
      result.tools.push(entry);
      result.checked += agreement.checked;
      result.agreed += agreement.agreed;
      if (agreement.failure) result.failures.push(entry);
    };
    const defaultDialect = options.defaultDialect === undefined ? {} : { defaultDialect: options.defaultDialect };
    record('input', checkValidationAgreement({ original: parts.schema, compacted: toolParts(compactedTool, compactedShape).schema, compile: options.compile, ...defaultDialect }));
    // An MCP tool's outputSchema is compacted too (decision 0075): what structuredContent must match is judged the same way.
    if (shape === 'mcp' && isRecord(tool.outputSchema) && isRecord(compactedTool.outputSchema)) {
      record('output', checkValidationAgreement({ original: tool.outputSchema, compacted: compactedTool.outputSchema, compile: options.compile, ...defaultDialect }));
    }
  });
  result.agreement = result.checked === 0 ? 1 : result.agreed / result.checked;
  return result;
}
