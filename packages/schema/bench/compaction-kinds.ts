// What is left after default compaction, by kind, pooled over the fixture sets measured untouched (decision 0104):
// `npx tsx --conditions=@ctxkit/source bench/compaction-kinds.ts [all|choose|confirm|later]`. Each kind's figure is the
// tokens the compacted list loses when that kind alone is removed (property names: their own tokens); what no kind
// claims is structure (braces, keys, `properties`, `anyOf`). The halves: decision 0104's 58 untouched sets sorted by
// file name, the 1st, 3rd, 5th… choose and the 2nd, 4th, 6th… confirm (fixed before decision 0104 measured anything).
// Sets added after decision 0104 stay out of both halves, so a new file cannot move an old one to the other half
// (decision 0107: four new names would have moved 41 of the 58); `later` reads them alone, `all` reads every set.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { o200kTokenizer } from '../test/o200k-tokenizer.ts';
import { normalizeToolsInput } from '../src/normalize-tools-input.ts';
import { schemaBench } from '../src/bench/schema-bench.ts';

/** Fixtures that were looked at while rules were written, or cannot be checked: not counted as untouched. */
const seenBeforeMeasuring = new Set(['fastmcp-pydantic.json', 'function-calling-benchmark.json', 'stainless-openapi-mcp.json', 'non-json-schema/bfcl-v3-multiple-raw.json']);
const fixtures = join(import.meta.dirname, '..', 'src', '__fixtures__');
const untouched: [string, unknown[]][] = [];
for (const dir of ['', 'non-json-schema/']) {
  for (const file of readdirSync(join(fixtures, dir)).filter((name) => name.endsWith('.json'))) {
    if (!seenBeforeMeasuring.has(`${dir}${file}`)) untouched.push([file, normalizeToolsInput(readFileSync(join(fixtures, dir, file), 'utf8')).tools]);
  }
}
untouched.sort((a, b) => a[0].localeCompare(b[0]));
/** Untouched sets added after decision 0104 fixed its halves (decision 0107 onwards): add each new batch here. */
const addedAfter0104 = new Set(['azure-devops-zod3-described-mcp.json', 'circleci-zod3-params-wrapper-mcp.json', 'context7-sdk2-zod4-mcp.json', 'stagehand-ai-sdk5-zod4-agent-tools.json']);
const half = process.argv[2] ?? 'all';
const split = untouched.filter(([file]) => !addedAfter0104.has(file));
const sets =
  half === 'all' ? untouched : half === 'later' ? untouched.filter(([file]) => addedAfter0104.has(file)) : split.filter((_, index) => (half === 'choose' ? index % 2 === 0 : index % 2 === 1));

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const data = new Set(['enum', 'const', 'default', 'examples']);
const bounds = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf', 'uniqueItems'];
const schemaKinds: Record<string, readonly string[]> = {
  'parameter descriptions': ['description'],
  type: ['type'],
  'enum / const': ['enum', 'const'],
  'required lists': ['required'],
  'format / pattern': ['format', 'pattern'],
  bounds,
  '$defs (whole)': ['$defs', 'definitions'],
  additionalProperties: ['additionalProperties'],
};

/** The schema without the keywords of one kind; names under `properties` are data, not keywords. */
function without(schema: unknown, keywords: readonly string[], namesHere = false): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => without(entry, keywords));
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (namesHere) out[key] = without(value, keywords);
    else if (keywords.includes(key) && !(key === 'type' && isObject(value))) continue;
    else out[key] = data.has(key) ? value : without(value, keywords, key === 'properties' || key === '$defs' || key === 'definitions');
  }
  return out;
}

function propertyNames(schema: unknown, names: string[]): void {
  if (Array.isArray(schema)) for (const entry of schema) propertyNames(entry, names);
  if (!isObject(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    if (data.has(key)) continue;
    if (key === 'properties' && isObject(value))
      for (const [name, sub] of Object.entries(value)) {
        names.push(name);
        propertyNames(sub, names);
      }
    else propertyNames(value, names);
  }
}

const tokenizer = o200kTokenizer();
await tokenizer.load?.();
const count = (value: unknown) => tokenizer.count(JSON.stringify(value));
const totals = new Map<string, number>();
const add = (kind: string, tokens: number) => totals.set(kind, (totals.get(kind) ?? 0) + tokens);
let original = 0;
let compacted = 0;
for (const [, tools] of sets) {
  const report = await schemaBench({ tools, tokenizer });
  original += report.toolsTotal.tokens;
  compacted += report.toolsTotal.compactedTokens;
  for (const tool of report.compacted.filter(isObject)) {
    const whole = count(tool);
    const cost = (change: (copy: Json) => void) => {
      const copy = structuredClone(tool);
      change(copy);
      return whole - count(copy);
    };
    add(
      'tool names',
      cost((copy) => {
        copy.name = '';
      }),
    );
    add(
      'tool descriptions',
      cost((copy) => {
        delete copy.description;
      }),
    );
    add(
      'tool titles (title, annotations.title)',
      cost((copy) => {
        delete copy.title;
        if (isObject(copy.annotations)) delete copy.annotations.title;
      }),
    );
    add(
      'annotations other than the title',
      cost((copy) => {
        if (isObject(copy.annotations)) copy.annotations = 'title' in copy.annotations ? { title: copy.annotations.title } : {};
      }),
    );
    add(
      '_meta and execution',
      cost((copy) => {
        delete copy._meta;
        delete copy.execution;
      }),
    );
    add(
      'outputSchema (whole)',
      cost((copy) => {
        delete copy.outputSchema;
      }),
    );
    const key = ['inputSchema', 'parameters', 'input_schema'].find((name) => name in tool);
    if (key === undefined) continue;
    for (const [kind, keywords] of Object.entries(schemaKinds))
      add(
        `input: ${kind}`,
        cost((copy) => {
          copy[key] = without(copy[key], keywords);
        }),
      );
    const names: string[] = [];
    propertyNames(tool[key], names);
    add(
      'input: property names',
      names.reduce((sum, name) => sum + tokenizer.count(name), 0),
    );
  }
}
console.log(`${half}: ${sets.length} sets, ${original} tokens, ${compacted} compacted (${((1 - compacted / original) * 100).toFixed(2)}% saved)`);
console.log('kind\ttokens\tshare of compacted');
for (const [kind, tokens] of [...totals].sort((a, b) => b[1] - a[1])) console.log(`${kind}\t${tokens}\t${((tokens / compacted) * 100).toFixed(1)}%`);
