// Scratch (decision 0097): `{"wordnet": "TABLE.json", "queryWeight": 0.3, "indexWeight": 0, "split": false}` in a
// bench's options JSON becomes createToolSearch's `expansion` option.
import { readFileSync } from 'node:fs';
import type { ToolSearchOptions } from '../src/tool-search.ts';

export function withExpansion(raw: Record<string, unknown>): ToolSearchOptions {
  const { wordnet, queryWeight, indexWeight, split, ...rest } = raw;
  if (typeof wordnet !== 'string') return rest as ToolSearchOptions;
  const table = JSON.parse(readFileSync(wordnet, 'utf8')) as Record<string, string>;
  return { ...(rest as ToolSearchOptions), expansion: { table, queryWeight: (queryWeight as number) ?? 0.3, indexWeight: (indexWeight as number) ?? 0, split: split === true } };
}
