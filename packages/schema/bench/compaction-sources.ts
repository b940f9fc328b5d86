// Per-source compaction savings (default mode) for docs/benchmarks.md: `npx tsx --conditions=@ctxkit/source bench/compaction-sources.ts`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir } from '@ctxkit/testkit';
import { o200kTokenizer } from '../test/o200k-tokenizer.ts';
import { ajvCompiler } from '../test/ajv-compiler.ts';
import { normalizeToolsInput } from '../src/normalize-tools-input.ts';
import { schemaBench } from '../src/bench/schema-bench.ts';
import { checkToolsAgreement } from '../src/bench/validation-agreement.ts';

const fixtures = join(import.meta.dirname, '..', 'src', '__fixtures__');
const sources: [string, unknown[]][] = [];
const corpus = corpusDir();
if (corpus) {
  for (const file of readdirSync(join(corpus, 'schemas'))
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    sources.push([`corpus/${file}`, normalizeToolsInput(readFileSync(join(corpus, 'schemas', file), 'utf8')).tools]);
  }
}
// `non-json-schema/` holds tool lists whose schemas ajv cannot compile (BFCL's raw `"type": "dict"`): their
// savings are real, their agreement column says how many tools could not be checked.
for (const dir of ['', 'non-json-schema/']) {
  for (const file of readdirSync(join(fixtures, dir))
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    sources.push([`fixture/${dir}${file}`, normalizeToolsInput(readFileSync(join(fixtures, dir, file), 'utf8')).tools]);
  }
}
const tokenizer = o200kTokenizer();
console.log('source\ttools\ttokens\tcompacted\tsaved\tagreement');
for (const [label, tools] of sources) {
  const report = await schemaBench({ tools, tokenizer });
  const { compile } = ajvCompiler();
  const agreement = checkToolsAgreement({ tools, compacted: report.compacted, compile });
  // `agreement` is 1 when nothing was checked, so tools whose schemas did not compile are named beside it.
  const unchecked = agreement.failures.length > 0 ? ` (${agreement.failures.length} of ${tools.length} tools not compiled, ${agreement.checked} instances checked)` : '';
  console.log(
    `${label}\t${tools.length}\t${report.toolsTotal.tokens}\t${report.toolsTotal.compactedTokens}\t${(report.toolsTotal.savedFraction * 100).toFixed(1)}%\t${agreement.agreement}${unchecked}`,
  );
}
