import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, corpusMissingMessage } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { ajvCompiler } from '../test/ajv-compiler.ts';
import { o200kTokenizer } from '../test/o200k-tokenizer.ts';
import type { CompactionWarning } from './compaction-warning.ts';
import { type CompactToolsOptions, compactTools } from './compact-tools.ts';
import { normalizeToolsInput } from './normalize-tools-input.ts';
import { schemaBench } from './bench/schema-bench.ts';
import { checkToolsAgreement } from './bench/validation-agreement.ts';

// The proof of issue 5: over every tool of the shared corpus, the compacted schema gives the same
// verdict as the original on generated valid and invalid instances, in every compaction mode.
const corpus = corpusDir();
if (!corpus) console.warn(`[schema] ${corpusMissingMessage}`);
const files = corpus
  ? readdirSync(join(corpus, 'schemas'))
      .filter((file) => file.endsWith('.json'))
      .sort()
  : [];
const read = (file: string) => normalizeToolsInput(readFileSync(join(corpus!, 'schemas', file), 'utf8')).tools;

const modes: [string, CompactToolsOptions][] = [
  ['default', {}],
  ['tool descriptions trimmed, usage annotations dropped', { trimToolDescriptions: true, dropUsageAnnotations: true }],
  ['every description dropped', { dropDescriptions: true, trimToolDescriptions: true, dropUsageAnnotations: true }],
];

describe.skipIf(!corpus)('the shared corpus of tool schemas', () => {
  describe.each(files)('%s', (file) => {
    it.each(modes)('validates exactly as before when compacted (%s)', (_mode, options) => {
      const tools = read(file);
      const warnings: CompactionWarning[] = [];
      const compacted = compactTools(tools, { ...options, onWarning: (warning) => warnings.push(warning) });
      expect(warnings).toEqual([]);
      const { compile, strictness } = ajvCompiler();
      const report = checkToolsAgreement({ tools, compacted, compile });
      expect(report.failures.map((tool) => `${tool.name}: ${tool.failure?.reason}`)).toEqual([]);
      expect(report.tools).toHaveLength(tools.length);
      const disagreements = report.tools.flatMap((tool) => tool.disagreements.map((entry) => `${tool.name} ${entry.dialect} ${entry.note}`));
      expect(disagreements).toEqual([]);
      expect(report.agreement).toBe(1);
      // Coverage: every tool had instances its original schema accepts and ones it rejects.
      for (const tool of report.tools) {
        expect(tool.acceptedByOriginal, `${tool.name} accepted`).toBeGreaterThan(0);
        if (JSON.stringify(tools[tool.index]).includes('"required"')) expect(tool.rejectedByOriginal, `${tool.name} rejected`).toBeGreaterThan(0);
      }
      // The report the issue asks for: what ajv's strict mode refused (compiled leniently instead), and why.
      for (const note of new Set([...strictness.values()].map((entry) => `${entry.dialect}: ${entry.reason}`))) {
        console.info(`[schema] ${file}: ajv strict mode refused a schema (${note}); compared with strict: false`);
      }
    });

    it('never makes a tool larger', () => {
      const tools = read(file);
      const compacted = compactTools(tools);
      tools.forEach((tool, index) => {
        expect(JSON.stringify(compacted[index]).length, `tool ${index}`).toBeLessThanOrEqual(JSON.stringify(tool).length);
      });
    });
  });

  it('saves at least 20% of o200k tokens over the corpus in the default mode', async () => {
    const tokenizer = o200kTokenizer();
    let tokens = 0;
    let compactedTokens = 0;
    for (const file of files) {
      const report = await schemaBench({ tools: read(file), tokenizer });
      tokens += report.toolsTotal.tokens;
      compactedTokens += report.toolsTotal.compactedTokens;
    }
    expect(1 - compactedTokens / tokens).toBeGreaterThanOrEqual(0.2);
  });
});
