// Decision 0101, "Tuned again under BM25F": createToolSearch's word match with every constant an option (the
// generic-word prior is a constant in src), for top1-sweep.ts and top1-diagnosis.ts. '{}' ranks as createToolSearch does.
import { createBm25fIndex } from '../../src/bm25f-index.ts';
import { defaultStopWords, splitWords } from '../../src/search-terms.ts';
import { hubExcess, penaliseHubs } from '../../src/tool-hubness.ts';
import { toolSearchText } from '../../src/tool-search.ts';

export interface SweepOptions {
  name?: number;
  description?: number;
  parameters?: number;
  k?: number;
  b?: number;
  d?: number;
  genericPrior?: number;
  hubPenalty?: number;
}

/** createToolSearch's word match (no semantic blend) with every constant an option: names of the top `limit`. */
export function createSweepSearch(pool: readonly unknown[], options: SweepOptions) {
  const settings = { name: 3, description: 1, parameters: 0.05, k: 4, b: 0.7, d: 0.5, genericPrior: 0.3, hubPenalty: 2, ...options };
  const names: string[] = [];
  const hubTexts: { position: number; text: string }[] = [];
  const documents = pool.map((tool, position) => {
    const text = toolSearchText(tool)!;
    names.push(text.name);
    hubTexts.push({ position, text: `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}` });
    return { id: position, fields: [`${text.name} ${text.title}`, text.description, text.parameters] as const };
  });
  const index = createBm25fIndex(documents, {
    weights: [settings.name, settings.description, settings.parameters],
    k: settings.k,
    b: settings.b,
    d: settings.d,
    genericPrior: settings.genericPrior,
    prefixMinLength: 0,
    terms: { stopWords: new Set(defaultStopWords), stem: true },
  });
  const excess = settings.hubPenalty > 0 ? hubExcess(hubTexts, index.scores) : new Map<number, number>();
  return {
    names,
    scores: (query: string) => penaliseHubs(index.scores(query), excess, settings.hubPenalty),
    rank: (query: string, limit = 5) =>
      [...penaliseHubs(index.scores(query), excess, settings.hubPenalty)]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, limit)
        .map(([position]) => names[position]!),
  };
}
