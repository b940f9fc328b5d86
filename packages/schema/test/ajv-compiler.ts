import Ajv, { type Options } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { CompileSchema } from '../src/bench/index.ts';
import type { SchemaDialect } from '../src/index.ts';

/** A schema ajv would not compile in strict mode, and the lenient compile that was used instead. */
export interface StrictnessNote {
  dialect: SchemaDialect;
  reason: string;
}

function createAjv(dialect: SchemaDialect, strict: boolean) {
  const options: Options = { strict, allErrors: false, validateFormats: true, logger: false };
  if (dialect === 'draft-2020-12') return addFormats(new Ajv2020(options));
  if (dialect === 'draft-07' || dialect === 'draft-06') return addFormats(new Ajv(options));
  throw new Error(`ajv is set up here for draft-07 and 2020-12 only, not ${dialect}`);
}

/**
 * The validator the proof uses: ajv 8 (draft-07, or ajv/dist/2020 for 2020-12) with ajv-formats. Each
 * schema is compiled strict first; when strict mode refuses it (an unknown keyword or format), the
 * reason is noted and it is compiled leniently, so the proof still runs.
 */
export function ajvCompiler(): { compile: CompileSchema; strictness: Map<unknown, StrictnessNote> } {
  const strictness = new Map<unknown, StrictnessNote>();
  const instances = new Map<string, ReturnType<typeof createAjv>>();
  const compileWith = (schema: unknown, dialect: SchemaDialect, strict: boolean) => {
    const key = `${dialect}:${strict}`;
    // One ajv per draft and mode, reused; a schema with an $id gets its own, so two tools sharing an $id do not clash.
    const hasId = typeof schema === 'object' && schema !== null && '$id' in schema;
    let ajv = hasId ? undefined : instances.get(key);
    if (!ajv) {
      ajv = createAjv(dialect, strict);
      if (!hasId) instances.set(key, ajv);
    }
    return ajv.compile(schema as object) as (instance: unknown) => boolean;
  };
  const compile: CompileSchema = (schema, dialect) => {
    try {
      return compileWith(schema, dialect, true);
    } catch (error) {
      strictness.set(schema, { dialect, reason: (error as Error).message });
      return compileWith(schema, dialect, false);
    }
  };
  return { compile, strictness };
}
