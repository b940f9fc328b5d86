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
for (const file of readdirSync(fixtures)
  .filter((name) => name.endsWith('.json'))
  .sort()) {
  sources.push([`fixture/${file}`, normalizeToolsInput(readFileSync(join(fixtures, file), 'utf8')).tools]);
}
const tokenizer = o200kTokenizer();
console.log('source\ttools\ttokens\tcompacted\tsaved\tagreement');
for (const [label, tools] of sources) {
  const report = await schemaBench({ tools, tokenizer });
  const { compile } = ajvCompiler();
  const agreement = checkToolsAgreement({ tools, compacted: report.compacted, compile });
  console.log(`${label}\t${tools.length}\t${report.toolsTotal.tokens}\t${report.toolsTotal.compactedTokens}\t${(report.toolsTotal.savedFraction * 100).toFixed(1)}%\t${agreement.agreement}`);
}
