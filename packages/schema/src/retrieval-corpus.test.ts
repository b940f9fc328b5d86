import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, corpusMissingMessage } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { o200kTokenizer } from '../test/o200k-tokenizer.ts';
import { deferBench } from './bench/defer-bench.ts';
import { measureRetrieval, type RetrievalQuery } from './bench/measure-retrieval.ts';
import { createToolSearch } from './tool-search.ts';

// Regression guards for the figures in docs/benchmarks.md (issue 12), on the shared corpus.
const corpus = corpusDir();
if (!corpus) console.warn(`[schema] ${corpusMissingMessage}`);
const metatool = () =>
  JSON.parse(readFileSync(join(corpus!, 'tool-retrieval', 'metatool.json'), 'utf8')) as {
    tools: { name: string; description: string }[];
    queries: RetrievalQuery[];
    multiToolQueries: RetrievalQuery[];
  };
const schemaTools = () =>
  readdirSync(join(corpus!, 'schemas'))
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => JSON.parse(readFileSync(join(corpus!, 'schemas', file), 'utf8')) as { name: string }[]);

describe.skipIf(!corpus)('tool search on MetaTool', () => {
  it('puts the needed tool in the top 5 for most requests, with and without the schema corpus as distractors', () => {
    const data = metatool();
    const tools = data.tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' } }));
    const alone = createToolSearch(tools);
    const crowded = createToolSearch([...tools, ...schemaTools()]);
    expect(measureRetrieval(alone, data.queries).topK).toBeGreaterThan(0.68);
    expect(measureRetrieval(alone, data.multiToolQueries).topK).toBeGreaterThan(0.86);
    expect(measureRetrieval(crowded, data.queries).topK).toBeGreaterThan(0.61);
    expect(measureRetrieval(crowded, data.multiToolQueries).topK).toBeGreaterThan(0.77);
  });
});

describe.skipIf(!corpus)('deferring the schema corpus', () => {
  it('cuts the floor of all corpus tools together by more than 85%', async () => {
    const seen = new Map<string, number>();
    // Names repeat across files; a set sent together needs unique names, so repeats get a suffix.
    const tools = schemaTools().map((tool) => {
      const count = (seen.get(tool.name) ?? 0) + 1;
      seen.set(tool.name, count);
      return count === 1 ? tool : { ...tool, name: `${tool.name}_${count}` };
    });
    expect(tools.length).toBeGreaterThan(250);
    const report = await deferBench({ tools, tokenizer: o200kTokenizer() });
    expect(report.savedFraction).toBeGreaterThan(0.85);
  });
});
